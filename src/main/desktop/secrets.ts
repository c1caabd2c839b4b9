import type { SafeStorage } from 'electron';
import type { SecretBox } from '../sync/secretBox';

/**
 * Remote passwords and tokens sealed by the operating system's keychain (Electron's safeStorage: Keychain,
 * DPAPI, libsecret). Where no keychain is available, undefined: the engine then uses its key-file box.
 */
export function safeStorageSecretBox(safeStorage: SafeStorage): SecretBox | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  return {
    encrypt: (text) => safeStorage.encryptString(text).toString('base64'),
    decrypt: (blob) => safeStorage.decryptString(Buffer.from(blob, 'base64')),
  };
}
