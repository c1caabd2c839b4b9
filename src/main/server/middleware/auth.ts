import type Koa from 'koa';
import type { CalendarStore } from '../../store/store';
import type { Caller } from '../../core/capabilities';
import { normaliseAppPassword, parseToken, secretMatches } from '../../core/credentials';
import { ApiError } from '../errors';

/** Failures allowed per client before answers slow down, and the window they are counted in. */
const FREE_FAILURES = 5;
const WINDOW_MS = 10 * 60_000;
const MAX_DELAY_S = 300;

interface FailureRecord {
  count: number;
  first: number;
  blockedUntil: number;
}

/**
 * Counts authentication failures per client address: after a few, the client must wait (429 with
 * `Retry-After`), doubling each time. Loopback clients are all one machine, so the login is part of the key.
 */
export class AuthThrottle {
  private readonly failures = new Map<string, FailureRecord>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Seconds the client must still wait, or 0. */
  waitFor(key: string): number {
    const record = this.failures.get(key);
    if (!record) return 0;
    const now = this.clock();
    if (now - record.first > WINDOW_MS && now >= record.blockedUntil) {
      this.failures.delete(key);
      return 0;
    }
    return Math.max(0, Math.ceil((record.blockedUntil - now) / 1000));
  }

  fail(key: string): void {
    const now = this.clock();
    const record = this.failures.get(key) ?? { count: 0, first: now, blockedUntil: 0 };
    record.count += 1;
    if (record.count >= FREE_FAILURES) {
      const delay = Math.min(MAX_DELAY_S, 2 ** (record.count - FREE_FAILURES));
      record.blockedUntil = now + delay * 1000;
    }
    this.failures.set(key, record);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}

function callerOf(store: CalendarStore, userId: number): Caller | null {
  const user = store.users.get(userId);
  return user ? { userId: user.id, login: user.login, role: user.role } : null;
}

function authenticate(store: CalendarStore, header: string): Caller {
  const [scheme, ...rest] = header.trim().split(/\s+/);
  const value = rest.join(' ');
  if (/^bearer$/i.test(scheme)) {
    const parsed = parseToken(value);
    const stored = parsed ? store.tokens.get(parsed.id) : undefined;
    const caller =
      stored && parsed && secretMatches(parsed.secret, stored) ? callerOf(store, stored.userId) : null;
    if (!caller) {
      throw new ApiError(
        401,
        'rest_invalid_token',
        'The API token is not valid. Get the current one with "calendar-desk token".',
      );
    }
    return caller;
  }
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const login = colon >= 0 ? decoded.slice(0, colon) : decoded;
    const password = normaliseAppPassword(colon >= 0 ? decoded.slice(colon + 1) : '');
    const user = store.users.getByKey(login.toLowerCase());
    if (!user) {
      throw new ApiError(401, 'invalid_username', 'Unknown username. Check again or try your email address.');
    }
    if (!user.appPasswords.some((appPassword) => secretMatches(password, appPassword))) {
      throw new ApiError(
        401,
        'incorrect_password',
        'The provided password is an invalid application password.',
      );
    }
    return { userId: user.id, login: user.login, role: user.role };
  }
  throw new ApiError(
    401,
    'rest_invalid_credentials',
    'Use "Authorization: Bearer <token>" or Basic with an application password.',
  );
}

/** Identifies the caller from `Authorization` (anonymous when absent); a wrong secret is 401 at once. */
export function authMiddleware(store: CalendarStore, throttle: AuthThrottle): Koa.Middleware {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    ctx.state.caller = null;
    if (header) {
      const key = `${ctx.request.ip}`;
      const wait = throttle.waitFor(key);
      if (wait > 0) {
        throw new ApiError(
          429,
          'rest_too_many_auth_failures',
          `Too many failed sign-ins from this client. Wait ${wait} s, then check the credentials.`,
          {},
          { 'Retry-After': String(wait) },
        );
      }
      try {
        ctx.state.caller = authenticate(store, header);
        throttle.succeed(key);
      } catch (error) {
        throttle.fail(key);
        throw error;
      }
    }
    await next();
  };
}
