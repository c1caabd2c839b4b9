import { calendarListRoutes } from './calendarList';
import { caldavAddressesSchema, madeAppPasswordSchema } from '../../../shared/schemas/caldav';
import type { CalendarStore } from '../../store/store';
import type { StoredUser } from '../../store/schema';
import { addAppPassword, addUser, revokeUser, UserError } from '../../core/users';
import { appPasswordArgs, createUserArgs, revokeUserArgs } from '../args/adminArgs';
import { calendarPath } from '../dav/paths';

import { ApiError } from '../errors';
import type { SecretBox } from '../../sync/secretBox';
import { fileSecretBox } from '../../sync/secretBox';
import { syncAdminRoutes } from './syncAdmin';
import { importRoutes } from './imports';
import { adminEndpoint, adminRoute } from './adminEndpoints';
import { openApiDocument } from './discovery';
import { docLanguage } from './index';
import { settingsRoutes } from './settings';
import { mediaRoutes } from './media';
import { exportRoutes } from './export';
import { changesRoutes } from './changes';
import { administrators, signedIn } from './permissions';
import { endpoint, type BareRequest, type RouteDef } from './table';
import { feedAdminRoutes } from './feeds';
import { linkedPostMergeRoutes } from './linkedPostMerge';
import { importSourceRoutes } from './importSources';
import type { FetchLimits } from '../../exchange/calendarFetch';
import type { FeedSecret } from '../../core/feeds/secret';
import type { SignInSessions } from '../signInSessions';
import type { AuthThrottle } from '../middleware/auth';
import { sessionRoutes } from './session';

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
  TOO_MANY_PASSWORDS: [409, 'too_many_app_passwords'],
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

const user = { description: 'The user, without secrets' };

/** Where a calendar app finds the caller's calendar (the bare address is enough for discovery). */
function caldavAddresses(request: BareRequest) {
  const origin = `${request.ctx.protocol}://${request.ctx.host}`;
  const login = request.caller!.login;
  return { login, address: `${origin}/`, calendar: `${origin}${calendarPath(login)}` };
}

const caldav = {
  description: "The CalDAV addresses of the caller's calendar",
  schema: caldavAddressesSchema,
};
const madePassword = {
  description: 'A new application password (shown once)',
  schema: madeAppPasswordSchema,
};

/**
 * `GET /caldav` (the caller's CalDAV addresses) and `POST /app-passwords` (a new application password for the
 * caller, shown only in this answer): what the Settings screen needs to connect a calendar app (issue 30).
 */
function calendarAppRoutes(store: CalendarStore, clock: () => Date): RouteDef[] {
  return [
    adminRoute('/caldav', [
      endpoint({
        methods: ['GET'],
        args: {},
        permission: signedIn,
        handle: (request) => ({ body: caldavAddresses(request) }),
        doc: { summary: "The CalDAV addresses of the caller's calendar", responses: { '200': caldav } },
      }),
    ]),
    adminRoute('/app-passwords', [
      endpoint({
        methods: ['POST'],
        args: appPasswordArgs,
        permission: signedIn,
        handle: async (request) => {
          const name = request.args.name || 'calendar app';
          const password = await userOperation(() =>
            addAppPassword(store, request.caller!.userId, name, clock),
          );
          return { status: 201, body: { ...caldavAddresses(request), name, password } };
        },
        doc: {
          summary: 'Make an application password for the caller (shown once)',
          responses: { '201': madePassword },
        },
      }),
    ]),
  ];
}

/** `GET /users`, `POST /users` ({login, role}: 201 with the new application password, shown only here). */
function userRoutes(store: CalendarStore, clock: () => Date, sessions: SignInSessions): RouteDef[] {
  return [
    {
      pattern: '/users',
      path: '/users',
      docPath: '/users',
      endpoints: [
        endpoint({
          methods: ['GET'],
          args: {},
          permission: administrators,
          handle: () => ({ body: [...store.users.values()].map((stored) => presentUser(store, stored)) }),
          doc: { summary: 'List the users', responses: { '200': user } },
        }),
        endpoint({
          methods: ['POST'],
          args: createUserArgs,
          permission: administrators,
          handle: async ({ args }) => {
            const created = await userOperation(() => addUser(store, args.login!, args.role!, clock));
            return { status: 201, body: { ...presentUser(store, created.user), password: created.password } };
          },
          doc: { summary: 'Create a user', responses: { '201': user } },
        }),
      ],
    },
    {
      pattern: '/users/(?P<login>[^/]+)/revoke',
      path: '/users/:login/revoke',
      docPath: '/users/{login}/revoke',
      endpoints: [
        endpoint({
          methods: ['POST'],
          args: revokeUserArgs,
          permission: administrators,
          handle: async ({ args }) => {
            const revoked = await userOperation(() => revokeUser(store, args.login!));
            // Its browsers are signed out too: a session is a credential like any other.
            sessions.closeAllOf(revoked.id);
            return { body: presentUser(store, revoked) };
          },
          doc: { summary: 'Revoke every credential of a user', responses: { '200': user } },
        }),
      ],
    },
  ];
}

/**
 * The admin namespace `calendar-desk/v1`: users, settings, pictures, sync remotes and jobs, imports, the
 * change feed, merging venues or organizers. Not
 * listed in the public indexes. Each endpoint declares who may call it (mostly administrators only).
 */
export function adminRoutes({
  store,
  clock,
  secretBox,
  feedSecret,
  addressNotice,
  importFetchLimits,
  sessions,
  throttle,
}: {
  store: CalendarStore;
  clock: () => Date;
  /** Seals saved remote secrets; default: a key file in the data folder (see sync/secretBox.ts). */
  secretBox?: SecretBox;
  /** The calendar feeds' secret (see core/feeds/secret.ts). */
  feedSecret?: FeedSecret;
  addressNotice?: () => string | null;
  /** Time and size limits of fetching an import address (see exchange/calendarFetch.ts). */
  importFetchLimits?: FetchLimits;
  /** One-time sign-in codes and browser sessions (see signInSessions.ts). */
  sessions: SignInSessions;
  /** The sign-in failures' throttle, which wrong sign-in codes count in too. */
  throttle: AuthThrottle;
}): RouteDef[] {
  const routes: RouteDef[] = [
    ...settingsRoutes(),
    ...mediaRoutes(),
    ...userRoutes(store, clock, sessions),
    ...calendarAppRoutes(store, clock),
    ...sessionRoutes({ store, sessions, throttle }),
    ...syncAdminRoutes({ store, clock, secretBox: secretBox ?? fileSecretBox(store.dataDir) }),
    ...importRoutes({ store }),
    ...feedAdminRoutes(feedSecret, addressNotice),
    ...importSourceRoutes({ store, limits: importFetchLimits }),
    ...changesRoutes,
    ...calendarListRoutes,
    ...exportRoutes,
    ...linkedPostMergeRoutes,
  ];
  // Its own OpenAPI document, for administrators (who alone may call these routes).
  routes.push(
    adminRoute('/doc', [
      adminEndpoint(['GET'], 'The OpenAPI document of the admin namespace', (request) => ({
        body: openApiDocument(routes, request.links, docLanguage(request), 'admin'),
      })),
    ]),
  );
  return routes;
}
