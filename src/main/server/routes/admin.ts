import Router from '@koa/router';
import type Koa from 'koa';
import type { CalendarStore } from '../../store/store';
import type { StoredUser } from '../../store/schema';
import type { MaybeCaller } from '../../core/capabilities';
import { addUser, revokeUser, UserError } from '../../core/users';
import { validateArgs } from '../args/define';
import { createUserArgs, revokeUserArgs } from '../args/adminArgs';
import { ApiError, FORBIDDEN } from '../errors';
import type { SecretBox } from '../../sync/secretBox';
import { fileSecretBox } from '../../sync/secretBox';
import { syncAdminRoutes } from './syncAdmin';

/** The admin namespace: what the CLI does to a data folder, done by the server that owns that folder. */
export const ADMIN_NAMESPACE = 'calendar-desk/v1';

/** A user as the admin namespace shows it: never a secret, only how many the user has. */
function presentUser(store: CalendarStore, user: StoredUser) {
  const tokens = [...store.tokens.values()].filter((token) => token.userId === user.id).length;
  return {
    id: user.id,
    login: user.login,
    name: user.displayName,
    role: user.role,
    created_utc: user.createdUtc,
    credentials: user.appPasswords.length + tokens,
  };
}

const USER_ERRORS: Record<UserError['code'], [number, string]> = {
  USER_EXISTS: [409, 'user_exists'],
  USER_NOT_FOUND: [404, 'user_not_found'],
  INVALID_LOGIN: [400, 'invalid_login'],
  ADMIN_PROTECTED: [400, 'admin_protected'],
};

/** Runs a user operation; its {@link UserError} becomes the API error with the same message. */
async function userOperation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const [status, code] = USER_ERRORS[error.code];
    throw new ApiError(status, code, error.message);
  }
}

/** Administrators only: 401 for nobody, 403 for everybody else. */
function requireAdministrator(ctx: Koa.Context): void {
  const caller = (ctx.state as { caller: MaybeCaller }).caller;
  if (!caller) throw FORBIDDEN(false);
  if (caller.role !== 'administrator') throw FORBIDDEN(true);
}

function bodyOf(ctx: Koa.Context): Record<string, unknown> {
  const body = ctx.request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/**
 * `GET /users`, `POST /users` ({login, role}: 201 with the new application password, shown only here) and
 * `POST /users/{login}/revoke`. Mounted under `/wp-json/calendar-desk/v1` behind the API's body parser and
 * authentication; not listed in the public indexes.
 */
export function adminRoutes({
  store,
  clock,
  secretBox,
}: {
  store: CalendarStore;
  clock: () => Date;
  /** Seals saved remote secrets; default: a key file in the data folder (see sync/secretBox.ts). */
  secretBox?: SecretBox;
}): Router {
  const router = new Router({ sensitive: false, strict: false });
  router.use(async (ctx, next) => {
    requireAdministrator(ctx);
    await next();
  });
  router.get('/users', async (ctx) => {
    ctx.body = await store.readSettled(() =>
      [...store.users.values()].map((user) => presentUser(store, user)),
    );
  });
  router.post('/users', async (ctx) => {
    const caller = (ctx.state as { caller: MaybeCaller }).caller;
    const args = validateArgs(createUserArgs, bodyOf(ctx), { store, caller });
    const { user, password } = await userOperation(() => addUser(store, args.login!, args.role!, clock));
    ctx.status = 201;
    ctx.body = { ...presentUser(store, user), password };
  });
  router.post('/users/:login/revoke', async (ctx) => {
    const caller = (ctx.state as { caller: MaybeCaller }).caller;
    const args = validateArgs(revokeUserArgs, { login: ctx.params.login }, { store, caller });
    const user = await userOperation(() => revokeUser(store, args.login!));
    ctx.body = presentUser(store, user);
  });
  syncAdminRoutes(router, { store, clock, secretBox: secretBox ?? fileSecretBox(store.dataDir) });
  return router;
}
