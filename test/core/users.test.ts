import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CalendarStore } from '../../src/main/store/store';
import {
  addUser,
  ADMIN_LOGIN,
  ADMIN_TOKEN_FILE,
  ensureAdminAccess,
  revokeUser,
  UserError,
} from '../../src/main/core/users';
import { hashSecret, normaliseAppPassword, parseToken, secretMatches } from '../../src/main/core/credentials';

const now = () => new Date('2030-01-02T03:04:05Z');
let dataDir: string;
let store: CalendarStore;

const open = () =>
  CalendarStore.open({
    dataDir,
    initialSettings: { siteName: 'Test', siteDescription: '', timezone: 'UTC', postsPerPage: 10 },
  });

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-users-'));
  store = await open();
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

const tokenFile = () => join(dataDir, ADMIN_TOKEN_FILE);
const adminTokenWorks = (token: string) => {
  const parsed = parseToken(token);
  const stored = parsed && store.tokens.get(parsed.id);
  return Boolean(parsed && stored && secretMatches(parsed.secret, stored));
};

describe('ensureAdminAccess', () => {
  it('creates the admin and a token file readable by its owner only', async () => {
    const token = await ensureAdminAccess(store, now);
    const admin = store.users.getByKey(ADMIN_LOGIN)!;
    expect(admin.role).toBe('administrator');
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
    expect((await readFile(tokenFile(), 'utf8')).trim()).toBe(token);
    expect(adminTokenWorks(token)).toBe(true);
    expect(store.tokens.get(parseToken(token)!.id)!.userId).toBe(admin.id);
  });

  it('keeps the same token across starts', async () => {
    const first = await ensureAdminAccess(store, now);
    await store.close();
    store = await open();
    expect(await ensureAdminAccess(store, now)).toBe(first);
    expect(store.users.size).toBe(1);
  });

  it('restores the owner-only mode of a token file that lost it', async () => {
    await ensureAdminAccess(store, now);
    await chmod(tokenFile(), 0o644);
    await ensureAdminAccess(store, now);
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
  });

  it('replaces a deleted token file with a new token and retires the old one (rotation)', async () => {
    const old = await ensureAdminAccess(store, now);
    await rm(tokenFile());
    const fresh = await ensureAdminAccess(store, now);
    expect(fresh).not.toBe(old);
    expect(adminTokenWorks(fresh)).toBe(true);
    expect(adminTokenWorks(old)).toBe(false);
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
  });

  it('does not trust a token file whose secret is wrong', async () => {
    const real = await ensureAdminAccess(store, now);
    const forged = real.replace(/.{6}$/, 'AAAAAA');
    await writeFile(tokenFile(), forged);
    const token = await ensureAdminAccess(store, now);
    expect(token).not.toBe(forged);
    expect(adminTokenWorks(token)).toBe(true);
    expect((await readFile(tokenFile(), 'utf8')).trim()).toBe(token);
  });

  it("does not accept another user's token as the admin's", async () => {
    await ensureAdminAccess(store, now);
    const { user } = await addUser(store, 'mallory', 'subscriber', now);
    await store.mutate((tx) =>
      tx.putToken({
        id: 'abcdefabcdef',
        userId: user.id,
        name: 'x',
        createdUtc: '2030-01-01 00:00:00',
        ...hashSecret('s'.repeat(24)),
      }),
    );
    await writeFile(tokenFile(), `cdt_abcdefabcdef_${'s'.repeat(24)}`);
    const token = await ensureAdminAccess(store, now);
    expect(store.tokens.get(parseToken(token)!.id)!.userId).toBe(store.users.getByKey('admin')!.id);
  });
});

describe('addUser', () => {
  it('returns the application password once and stores only its hash', async () => {
    const { user, password } = await addUser(store, 'writer', 'author', now);
    expect(user.role).toBe('author');
    expect(user.appPasswords).toHaveLength(1);
    const stored = user.appPasswords[0];
    expect(JSON.stringify(user)).not.toContain(normaliseAppPassword(password));
    expect(secretMatches(normaliseAppPassword(password), stored)).toBe(true);
    await store.close();
    const file = await readFile(join(dataDir, 'calendar.json'), 'utf8');
    expect(file).not.toContain(normaliseAppPassword(password));
    expect(file).not.toContain(password);
    store = await open();
  });

  it.each(['', ' spaced', 'a b', 'x'.repeat(61), '-leading', 'semi;colon', 'ünïcode'])(
    'refuses the login %j',
    async (login) => {
      await expect(addUser(store, login, 'editor', now)).rejects.toMatchObject({ code: 'INVALID_LOGIN' });
    },
  );

  it('refuses a login that exists, in any case', async () => {
    await addUser(store, 'Dana', 'editor', now);
    const attempt = addUser(store, 'dana', 'author', now);
    await expect(attempt).rejects.toBeInstanceOf(UserError);
    await expect(attempt).rejects.toMatchObject({ code: 'USER_EXISTS' });
  });

  it('gives each user a distinct id', async () => {
    const a = await addUser(store, 'one', 'editor', now);
    const b = await addUser(store, 'two', 'editor', now);
    expect(a.user.id).not.toBe(b.user.id);
  });
});

describe('revokeUser', () => {
  it('removes every credential of the user and keeps the user', async () => {
    const { user } = await addUser(store, 'leaving', 'editor', now);
    await store.mutate((tx) =>
      tx.putToken({
        id: '0123456789ab',
        userId: user.id,
        name: 't',
        createdUtc: '2030-01-01 00:00:00',
        ...hashSecret('t'.repeat(24)),
      }),
    );
    const revoked = await revokeUser(store, 'LEAVING');
    expect(revoked.appPasswords).toEqual([]);
    expect(store.users.getByKey('leaving')!.appPasswords).toEqual([]);
    expect([...store.tokens.values()].some((token) => token.userId === user.id)).toBe(false);
  });

  it("leaves other users' credentials alone", async () => {
    const adminToken = await ensureAdminAccess(store, now);
    await addUser(store, 'stays', 'editor', now);
    await addUser(store, 'goes', 'editor', now);
    await revokeUser(store, 'goes');
    expect(store.users.getByKey('stays')!.appPasswords).toHaveLength(1);
    expect(adminTokenWorks(adminToken)).toBe(true);
  });

  it('names an unknown user', async () => {
    await expect(revokeUser(store, 'ghost')).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });
});
