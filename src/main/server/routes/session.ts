import type { CalendarStore } from '../../store/store';
import { ApiError } from '../errors';
import type { AuthThrottle } from '../middleware/auth';
import { clearedSessionCookie, sessionCookie, sessionCookieOf, type SignInSessions } from '../signInSessions';
import {
  sessionAnswerSchema,
  sessionRequestSchema,
  signInCodeAnswerSchema,
} from '../../../shared/schemas/session';
import { bodyOf, parse } from './adminEndpoints';
import { signedIn, signingIn } from './permissions';
import { endpoint, type BareRequest, type RouteDef } from './table';

const SQL_UTC = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

const portOf = (request: BareRequest) => request.ctx.req.socket.localPort ?? 0;

/**
 * The browser's way in (see signInSessions.ts): `POST /signin-codes` gives a signed-in caller (the CLI's
 * `signin-link`, with the folder's token) a one-time code and its link; `POST /session` exchanges a code (or
 * the credentials sent) for an HttpOnly session cookie; `DELETE /session` signs that browser out.
 */
export function sessionRoutes({
  store,
  sessions,
  throttle,
}: {
  store: CalendarStore;
  sessions: SignInSessions;
  throttle: AuthThrottle;
}): RouteDef[] {
  const exchange = (request: BareRequest) => {
    const { code } = parse(sessionRequestSchema, bodyOf(request));
    let userId: number | null;
    if (code !== undefined) {
      // Every client on this machine shares the loopback address: one key for all codes. Only failures are
      // slowed down, so whoever guesses on purpose never keeps the right code out.
      const key = `${request.ctx.request.ip} signin-code`;
      userId = sessions.redeemCode(code);
      if (userId === null) {
        const alreadyBlocked = throttle.waitFor(key) > 0;
        throttle.fail(key);
        const wait = throttle.waitFor(key);
        if (alreadyBlocked) {
          throw new ApiError(
            429,
            'rest_too_many_auth_failures',
            `Too many wrong sign-in codes. Wait ${wait} s, then get a new link with "calendar-desk signin-link".`,
            {},
            { 'Retry-After': String(wait) },
          );
        }
        throw new ApiError(
          401,
          'rest_invalid_signin_code',
          'This sign-in code is wrong, used or expired (a code works once, for five minutes). Get a new link with "calendar-desk signin-link".',
        );
      }
      throttle.succeed(key);
    } else {
      if (!request.caller || !request.ctx.get('Authorization')) {
        throw new ApiError(
          401,
          'rest_forbidden',
          'Give a sign-in code (code) or credentials (Authorization) to open a session.',
        );
      }
      userId = request.caller.userId;
    }
    const user = store.users.get(userId);
    if (!user) throw new ApiError(401, 'rest_invalid_signin_code', 'The user of this sign-in code is gone.');
    const id = sessions.openSession(user.id);
    return {
      status: 201,
      body: { login: user.login, role: user.role },
      headers: { 'Set-Cookie': sessionCookie(portOf(request), id) },
    };
  };
  return [
    {
      pattern: '/session',
      path: '/session',
      docPath: '/session',
      endpoints: [
        endpoint({
          methods: ['POST'],
          args: {},
          permission: signingIn,
          handle: exchange,
          doc: {
            summary: 'Open a browser session (an HttpOnly cookie) with a one-time sign-in code',
            responses: { '201': { description: 'Signed in', schema: sessionAnswerSchema } },
            body: sessionRequestSchema,
          },
        }),
        endpoint({
          methods: ['DELETE'],
          args: {},
          permission: signedIn,
          handle: (request) => {
            const id = sessionCookieOf(request.ctx.get('Cookie'), portOf(request));
            if (id) sessions.closeSession(id);
            return {
              body: { signed_out: true },
              headers: { 'Set-Cookie': clearedSessionCookie(portOf(request)) },
            };
          },
          doc: {
            summary: 'Sign this browser out (its session ends on the server too)',
            responses: { '200': { description: 'Signed out' } },
          },
        }),
      ],
    },
    {
      pattern: '/signin-codes',
      path: '/signin-codes',
      docPath: '/signin-codes',
      endpoints: [
        endpoint({
          methods: ['POST'],
          args: {},
          permission: signedIn,
          handle: (request) => {
            const { code, expires } = sessions.issueCode(request.caller!.userId);
            return {
              status: 201,
              body: {
                code,
                link: `${request.ctx.protocol}://${request.ctx.host}/#/signin?code=${code}`,
                expires_utc: SQL_UTC(expires),
              },
            };
          },
          doc: {
            summary: 'A one-time sign-in code for the caller (valid once, for five minutes) and its link',
            responses: { '201': { description: 'A fresh code', schema: signInCodeAnswerSchema } },
          },
        }),
      ],
    },
  ];
}
