import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Keeps remote passwords and tokens unreadable in the data file. The desktop shell supplies one backed by
 * Electron's safeStorage; `serve` uses {@link fileSecretBox}.
 */
export interface SecretBox {
  encrypt(text: string): string;
  decrypt(blob: string): string;
}

export class SecretBoxError extends Error {
  readonly code = 'SECRET_UNREADABLE';
}

export const SECRET_KEY_FILE = 'sync-secret.key';

/**
 * AES-256-GCM with a random key kept in `sync-secret.key` in the data folder (mode 0600, created on first
 * use). It keeps secrets out of the data file, its backups and exports; whoever can read the key file (the
 * same user) can read them.
 */
export function fileSecretBox(dataDir: string): SecretBox {
  const file = join(dataDir, SECRET_KEY_FILE);
  let key: Buffer | null = null;
  const loadKey = () => {
    if (key) return key;
    try {
      key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      key = randomBytes(32);
      writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
    }
    if (key.length !== 32)
      throw new SecretBoxError(
        `The key file ${file} is damaged: remove it and enter the remote passwords again.`,
      );
    return key;
  };
  return {
    encrypt(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', loadKey(), iv);
      const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return [
        'v1',
        iv.toString('base64'),
        cipher.getAuthTag().toString('base64'),
        sealed.toString('base64'),
      ].join(':');
    },
    decrypt(blob) {
      const [version, iv, tag, sealed] = blob.split(':');
      if (version !== 'v1' || !iv || !tag || sealed === undefined)
        throw new SecretBoxError('A saved remote secret is damaged: enter it again.');
      try {
        const decipher = createDecipheriv('aes-256-gcm', loadKey(), Buffer.from(iv, 'base64'));
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretBoxError(
          `A saved remote secret cannot be read with the key in ${file}: enter it again.`,
        );
      }
    },
  };
}
