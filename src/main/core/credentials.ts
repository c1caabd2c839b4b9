import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Secrets (API tokens, application passwords) are generated here with 144+ bits of randomness and stored only
 * as salted SHA-256 hashes. A slow password hash buys nothing against secrets that cannot be guessed, and
 * would cost every authenticated request tens of milliseconds.
 */
export interface SecretHash {
  salt: string;
  hash: string;
}

export function hashSecret(secret: string, salt = randomBytes(16).toString('hex')): SecretHash {
  return { salt, hash: createHash('sha256').update(salt).update(secret).digest('hex') };
}

export function secretMatches(secret: string, stored: SecretHash): boolean {
  const candidate = Buffer.from(hashSecret(secret, stored.salt).hash, 'hex');
  const expected = Buffer.from(stored.hash, 'hex');
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

/** A WordPress-style application password: 24 characters shown in groups of four. */
export function generateAppPassword(): string {
  const alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(24);
  const chars = [...bytes].map((byte) => alphabet[byte % alphabet.length]);
  return [0, 4, 8, 12, 16, 20].map((at) => chars.slice(at, at + 4).join('')).join(' ');
}

/** WordPress strips spaces from application passwords before checking them. */
export const normaliseAppPassword = (password: string) => password.replace(/\s+/g, '');

/** A bearer token `cdt_<id>_<secret>`: the id finds the stored hash without scanning. */
export function generateToken(): { id: string; secret: string; token: string } {
  const id = randomUUID().replaceAll('-', '').slice(0, 12);
  const secret = randomBytes(24).toString('base64url');
  return { id, secret, token: `cdt_${id}_${secret}` };
}

export function parseToken(token: string): { id: string; secret: string } | null {
  const match = /^cdt_([0-9a-f]{12})_([A-Za-z0-9_-]{20,})$/.exec(token.trim());
  return match ? { id: match[1]!, secret: match[2]! } : null;
}
