import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { dataFolderText, startTestServer, NS, type TestServer } from '../helpers/server';
import { CalendarStore } from '../../src/main/store/store';
import { addUser, ADMIN_TOKEN_FILE, revokeUser } from '../../src/main/core/users';
import { expectError } from './safety.http';

/** CONTRACT §5: Bearer tokens, Basic with application passwords, secrets only hashed, revocation. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const basic = (login: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
});
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function newUser(login: string, role: Parameters<typeof addUser>[2] = 'editor') {
  const { password } = await addUser(server.engine.store, login, role, () => new Date());
  return password;
}

const createCategory = (name: string, auth: Record<string, string>) =>
  server.api('categories', { method: 'POST', auth, json: { name } });

async function categoryExists(name: string): Promise<boolean> {
  const list = await server.api(`categories?hide_empty=false&search=${encodeURIComponent(name)}`);
  return (list.body.categories as Array<{ name: string }>).some((term) => term.name === name);
}

describe('accepted credentials', () => {
  it('accepts the admin API token as Bearer', async () => {
    const response = await createCategory('By bearer', server.admin);
    expect(response.status).toBe(201);
  });

  it('accepts the bearer scheme in any case', async () => {
    const response = await createCategory('By lower bearer', {
      Authorization: `bearer ${server.engine.adminToken}`,
    });
    expect(response.status).toBe(201);
  });

  it('accepts an application password as WordPress shows it (groups with spaces)', async () => {
    const password = await newUser('spaced');
    expect(password).toMatch(/^(\S{4} ){5}\S{4}$/);
    const response = await createCategory('By spaced password', basic('spaced', password));
    expect(response.status).toBe(201);
  });

  it('accepts the same application password without spaces', async () => {
    const password = await newUser('unspaced');
    const response = await createCategory(
      'By compact password',
      basic('unspaced', password.replace(/ /g, '')),
    );
    expect(response.status).toBe(201);
  });

  it('identifies the caller: created records carry their author', async () => {
    const password = await newUser('authorship', 'author');
    const response = await server.api('venues', {
      method: 'POST',
      auth: basic('authorship', password),
      json: { venue: 'Authored Hall' },
    });
    expect(response.status).toBe(201);
    const user = server.engine.store.users.getByKey('authorship')!;
    expect(response.body.author).toBe(String(user.id));
  });
});

describe('refused credentials', () => {
  it('answers a wrong application password with 401 incorrect_password (sample 36) and stores nothing', async () => {
    await newUser('wrongpw');
    const response = await createCategory('Wrong password', basic('wrongpw', 'wrong-password'));
    expectError(response, 401, 'incorrect_password');
    expect(response.body.message).toBe('The provided password is an invalid application password.');
    expect(await categoryExists('Wrong password')).toBe(false);
  });

  it('refuses the admin login with a wrong password (the admin has no application password)', async () => {
    const response = await createCategory('Admin wrong', basic('admin', 'wrong-password'));
    expectError(response, 401, 'incorrect_password');
  });

  it('answers an unknown login with 401 invalid_username', async () => {
    const response = await createCategory(
      'Unknown login',
      basic('nobody-here', 'abcd efgh ijkl mnop qrst uvwx'),
    );
    expectError(response, 401, 'invalid_username');
    expect(await categoryExists('Unknown login')).toBe(false);
  });

  it("refuses another user's application password", async () => {
    await newUser('alice');
    const bobPassword = await newUser('bob');
    const response = await createCategory('Crossed', basic('alice', bobPassword));
    expectError(response, 401, 'incorrect_password');
  });

  it.each([
    ['garbage', 'not-a-token'],
    ['an empty token', ''],
    ['a token with a wrong secret', () => server.engine.adminToken.replace(/.{4}$/, 'AAAA')],
    [
      'a token with an unknown id',
      () => server.engine.adminToken.replace(/^cdt_[0-9a-f]{12}/, 'cdt_000000000000'),
    ],
  ])('answers a bearer with %s with 401', async (_label, token) => {
    const value = typeof token === 'function' ? token() : token;
    const response = await createCategory('Bad bearer', bearer(value));
    expectError(response, 401);
    expect(await categoryExists('Bad bearer')).toBe(false);
  });

  it('answers an unsupported scheme with 401', async () => {
    const response = await server.api('events', { auth: { Authorization: 'Digest username="admin"' } });
    expectError(response, 401);
  });

  it('refuses a wrong secret on reads too (GET of public data)', async () => {
    await newUser('reader');
    const anonymous = await server.api('events');
    expect(anonymous.status).toBe(200);
    const wrong = await server.api('events', { auth: basic('reader', 'nope nope nope nope nope nope') });
    expectError(wrong, 401, 'incorrect_password');
    const wrongBearer = await server.api('categories', {
      auth: bearer('cdt_0123456789ab_wrongwrongwrongwrongwrong'),
    });
    expectError(wrongBearer, 401);
  });

  it('answers 401 before looking at the route (even unknown routes and bad arguments)', async () => {
    const response = await server.api('events?per_page=abc', { auth: basic('admin', 'x') });
    expectError(response, 401, 'incorrect_password');
  });
});

describe('secrets at rest', () => {
  it('stores application passwords and tokens only as salted hashes', async () => {
    const password = await newUser('hashed');
    // Wait for a write that surely follows the user's creation to be on disk.
    expect((await createCategory('After hashed', basic('hashed', password))).status).toBe(201);
    const text = await dataFolderText(server.dataDir);
    const compact = password.replace(/ /g, '');
    const tokenSecret = server.engine.adminToken.split('_').slice(2).join('_');
    expect(text).not.toContain(password);
    expect(text).not.toContain(compact);
    expect(text).not.toContain(server.engine.adminToken);
    expect(text).not.toContain(tokenSecret);

    const data = await CalendarStore.inspect(server.dataDir, server.engine.store.settings);
    const stored = data.users.find((user) => user.login === 'hashed')!.appPasswords;
    expect(stored).toHaveLength(1);
    expect(stored[0].salt).toMatch(/^[0-9a-f]{32}$/);
    expect(stored[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.values(stored[0])).not.toContain(compact);
    for (const token of data.tokens) {
      expect(token.salt).toMatch(/^[0-9a-f]{32}$/);
      expect(token.hash).toMatch(/^[0-9a-f]{64}$/);
    }
    // Two users never share a salt, so equal passwords would not show.
    const salts = data.users.flatMap((user) => user.appPasswords.map((entry) => entry.salt));
    expect(new Set(salts).size).toBe(salts.length);
  });

  it('keeps the admin token in a file only its owner can read', async () => {
    const file = join(server.dataDir, ADMIN_TOKEN_FILE);
    expect(server.engine.adminTokenFile).toBe(file);
    const info = await stat(file);
    expect(info.mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(server.engine.adminToken);
  });
});

describe('revocation', () => {
  it('stops a revoked user from writing (and from reading with the old secret)', async () => {
    const password = await newUser('leaver', 'editor');
    const before = await createCategory('Before leaving', basic('leaver', password));
    expect(before.status).toBe(201);

    await revokeUser(server.engine.store, 'leaver');

    const after = await createCategory('After leaving', basic('leaver', password));
    expectError(after, 401, 'incorrect_password');
    expect(await categoryExists('After leaving')).toBe(false);
    const read = await server.api('events', { auth: basic('leaver', password) });
    expectError(read, 401);
    // Their records stay; other users are not affected.
    expect(await categoryExists('Before leaving')).toBe(true);
    expect((await createCategory('Admin still works', server.admin)).status).toBe(201);
  });
});

describe('language roots and auth', () => {
  it('authenticates the same way under a language root', async () => {
    const response = await server.api(`${server.engine.origin}/it/${NS}/categories`, {
      method: 'POST',
      auth: server.admin,
      json: { name: 'Categoria' },
    });
    expect(response.status).toBe(201);
    const refused = await server.api(`${server.engine.origin}/pl/${NS}/categories`, {
      method: 'POST',
      json: { name: 'Kategoria' },
    });
    expectError(refused, 401, 'rest_forbidden');
  });
});
