import { describe, expect, it } from 'vitest';
import {
  generateAppPassword,
  generateToken,
  hashSecret,
  normaliseAppPassword,
  parseToken,
  secretMatches,
} from '../../src/main/core/credentials';

describe('secret hashing', () => {
  it('matches the secret it hashed and nothing else', () => {
    const stored = hashSecret('correct horse');
    expect(secretMatches('correct horse', stored)).toBe(true);
    expect(secretMatches('correct horsE', stored)).toBe(false);
    expect(secretMatches('', stored)).toBe(false);
    expect(secretMatches('correct horse ', stored)).toBe(false);
  });

  it('salts every hash: the same secret hashes differently and never appears in the record', () => {
    const first = hashSecret('same secret');
    const second = hashSecret('same secret');
    expect(first.salt).not.toBe(second.salt);
    expect(first.hash).not.toBe(second.hash);
    expect(JSON.stringify(first)).not.toContain('same secret');
    expect(first.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a record whose hash is damaged instead of throwing', () => {
    const stored = hashSecret('x');
    expect(secretMatches('x', { ...stored, hash: stored.hash.slice(0, 10) })).toBe(false);
    expect(secretMatches('x', { ...stored, hash: '' })).toBe(false);
  });
});

describe('application passwords', () => {
  it('look like WordPress ones: six groups of four', () => {
    for (let i = 0; i < 50; i++) {
      expect(generateAppPassword()).toMatch(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    }
  });

  it('are never the same twice', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateAppPassword()));
    expect(seen.size).toBe(200);
  });

  it('are compared without their spaces', () => {
    expect(normaliseAppPassword('abcd efgh ijkl')).toBe('abcdefghijkl');
    expect(normaliseAppPassword(' abcd\tefgh\n')).toBe('abcdefgh');
    const password = generateAppPassword();
    const stored = hashSecret(normaliseAppPassword(password));
    expect(secretMatches(normaliseAppPassword(password.replace(/ /g, '')), stored)).toBe(true);
  });
});

describe('API tokens', () => {
  it('round-trip through parseToken', () => {
    const { id, secret, token } = generateToken();
    expect(token).toBe(`cdt_${id}_${secret}`);
    expect(parseToken(token)).toEqual({ id, secret });
    expect(parseToken(`  ${token}\n`)).toEqual({ id, secret });
  });

  it('carry enough randomness', () => {
    const { secret } = generateToken();
    expect(Buffer.from(secret, 'base64url').length).toBeGreaterThanOrEqual(24);
    const tokens = new Set(Array.from({ length: 100 }, () => generateToken().token));
    expect(tokens.size).toBe(100);
  });

  it.each([
    '',
    'garbage',
    'cdt_',
    'cdt_xyz_abc',
    'cdt_0123456789ab_short',
    'Bearer cdt_0123456789ab_aaaaaaaaaaaaaaaaaaaaaaaa',
  ])('rejects %j', (value) => {
    expect(parseToken(value)).toBeNull();
  });
});
