import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Role } from '../../shared/enums';
import type { Caller } from './capabilities';
import type { CalendarStore } from '../store/store';
import type { StoredUser } from '../store/schema';
import {
  generateAppPassword,
  generateToken,
  hashSecret,
  normaliseAppPassword,
  parseToken,
  secretMatches,
} from './credentials';
import { utcSqlNow } from './dates/sqlDates';

export const ADMIN_LOGIN = 'admin';
export const ADMIN_TOKEN_FILE = 'admin-token';
const ADMIN_TOKEN_NAME = 'admin token';

export class UserError extends Error {
  constructor(
    readonly code:
      'USER_EXISTS' | 'USER_NOT_FOUND' | 'INVALID_LOGIN' | 'ADMIN_PROTECTED' | 'TOO_MANY_PASSWORDS',
    message: string,
  ) {
    super(message);
  }
}

const LOGIN_PATTERN = /^[a-z0-9][a-z0-9._@-]{0,59}$/i;

/**
 * First start: create the `admin` user. Every start: make sure the admin token file holds a token the store
 * knows (a deleted or foreign file gets a fresh token), readable by the owner only. Returns the token.
 */
export async function ensureAdminAccess(store: CalendarStore, now: () => Date): Promise<string> {
  let admin = store.users.getByKey(ADMIN_LOGIN);
  if (!admin) {
    const created = utcSqlNow(now());
    await store.mutate((tx) => {
      tx.putUser({
        id: tx.nextUserId(),
        login: ADMIN_LOGIN,
        displayName: 'Administrator',
        role: 'administrator',
        appPasswords: [],
        createdUtc: created,
      });
    });
    admin = store.users.getByKey(ADMIN_LOGIN)!;
  }
  const tokenPath = join(store.dataDir, ADMIN_TOKEN_FILE);
  const existing = await readFile(tokenPath, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  const parsed = parseToken(existing);
  const known = parsed ? store.tokens.get(parsed.id) : undefined;
  if (parsed && known?.userId === admin.id && secretMatches(parsed.secret, known)) {
    // A copied or restored file may have lost its mode: the token stays readable by its owner only (unless
    // the folder is read-only: then nothing can be changed, and the token is still good to read with).
    await chmod(tokenPath, 0o600).catch((error: unknown) => {
      if (!store.readOnly) throw error;
    });
    return existing;
  }

  // A new admin token replaces the earlier ones: deleting the file is how a user rotates a leaked token.
  const { id, secret, token } = generateToken();
  const adminId = admin.id;
  const earlier = [...store.tokens.values()].filter(
    (stored) => stored.userId === adminId && stored.name === ADMIN_TOKEN_NAME,
  );
  await store.mutate((tx) => {
    for (const stored of earlier) tx.deleteToken(stored.id);
    tx.putToken({
      id,
      userId: adminId,
      name: ADMIN_TOKEN_NAME,
      createdUtc: utcSqlNow(now()),
      ...hashSecret(secret),
    });
  });
  // Created afresh so that the mode applies (writeFile keeps the mode of an existing file).
  await rm(tokenPath, { force: true });
  await writeFile(tokenPath, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return token;
}

/** Creates a user with one application password; returns the password (shown once, stored hashed). */
export async function addUser(
  store: CalendarStore,
  login: string,
  role: Role,
  now: () => Date,
): Promise<{ user: StoredUser; password: string }> {
  if (!LOGIN_PATTERN.test(login)) {
    throw new UserError(
      'INVALID_LOGIN',
      `"${login}" is not a valid login: use 1-60 letters, digits and . _ @ - (starting with a letter or digit).`,
    );
  }
  if (store.users.hasKey(login.toLowerCase())) {
    throw new UserError('USER_EXISTS', `A user named "${login}" already exists. Pick another login.`);
  }
  const password = generateAppPassword();
  const created = utcSqlNow(now());
  const user = await store.mutate((tx) => {
    const record: StoredUser = {
      id: tx.nextUserId(),
      login,
      displayName: login,
      role,
      createdUtc: created,
      appPasswords: [
        {
          uuid: randomUUID(),
          name: 'calendar-desk',
          createdUtc: created,
          lastUsedUtc: null,
          ...hashSecret(normaliseAppPassword(password)),
        },
      ],
    };
    tx.putUser(record);
    return record;
  });
  return { user, password };
}

/** Application passwords a user may hold at most (each calendar app or script gets its own). */
export const MAX_APP_PASSWORDS = 20;

/**
 * Makes a new application password for the user `userId` (for a calendar app: CalDAV signs in with it), named
 * so the user can tell them apart; answers it once, only its hash is kept.
 */
export async function addAppPassword(
  store: CalendarStore,
  userId: number,
  name: string,
  now: () => Date,
): Promise<string> {
  const password = generateAppPassword();
  const created = utcSqlNow(now());
  await store.mutate((tx) => {
    const user = store.users.get(userId);
    if (!user) throw new UserError('USER_NOT_FOUND', 'This user no longer exists.');
    if (user.appPasswords.length >= MAX_APP_PASSWORDS)
      throw new UserError(
        'TOO_MANY_PASSWORDS',
        `You already have ${MAX_APP_PASSWORDS} application passwords. Ask an administrator to revoke them (Users), then make a new one.`,
      );
    tx.putUser({
      ...user,
      appPasswords: [
        ...user.appPasswords,
        {
          uuid: randomUUID(),
          name,
          createdUtc: created,
          lastUsedUtc: null,
          ...hashSecret(normaliseAppPassword(password)),
        },
      ],
    });
  });
  return password;
}

/** Revokes every credential of a user (application passwords and tokens); the user and their posts stay. */
export async function revokeUser(store: CalendarStore, login: string): Promise<StoredUser> {
  const user = store.users.getByKey(login.toLowerCase());
  if (!user) throw new UserError('USER_NOT_FOUND', `There is no user named "${login}". See "users list".`);
  // The app itself (desktop window, CLI, sign-in link) works through the admin token: revoking it would
  // lock everyone out until a restart. Rotating it is what a user with a leaked token needs.
  if (user.login.toLowerCase() === ADMIN_LOGIN) {
    throw new UserError(
      'ADMIN_PROTECTED',
      `The built-in "${ADMIN_LOGIN}" cannot be revoked: the app signs in with it. To replace its token, stop ` +
        `Calendar Desk, delete the file ${join(store.dataDir, ADMIN_TOKEN_FILE)} and start it again (a new ` +
        'token is written there and the old one stops working).',
    );
  }
  return store.mutate((tx) => {
    const revoked = { ...user, appPasswords: [] };
    tx.putUser(revoked);
    for (const token of store.tokens.values()) if (token.userId === user.id) tx.deleteToken(token.id);
    return revoked;
  });
}

/**
 * The folder's owner: the built-in `admin`, whom the CLI and the desktop app act as (the admin token is
 * theirs). A command working on the folder directly writes as this user, as it would through the server.
 */
export function folderOwner(store: CalendarStore): Caller {
  const admin = store.users.getByKey(ADMIN_LOGIN);
  if (!admin) {
    throw new UserError(
      'USER_NOT_FOUND',
      `The data folder ${store.dataDir} has no "${ADMIN_LOGIN}" user: open it with Calendar Desk once, which creates it.`,
    );
  }
  return { userId: admin.id, login: admin.login, role: admin.role };
}
