import type { ApiContext } from '../state';
import type { CalendarStore } from '../../store/store';
import type { Caller, MaybeCaller } from '../../core/capabilities';
import { normaliseAppPassword, parseToken, secretMatches } from '../../core/credentials';
import { ApiError } from '../errors';
import { sessionCookieOf, type SignInSessions } from '../signInSessions';

/** Failures allowed per client and credential before answers slow down, and the window they are counted in. */
export const FREE_FAILURES = 10;
const WINDOW_MS = 10 * 60_000;
const MAX_DELAY_S = 300;
/** Keys kept at most; beyond that, expired ones are dropped first, then the oldest. */
const MAX_KEYS = 10_000;

interface FailureRecord {
  count: number;
  first: number;
  blockedUntil: number;
}

/**
 * Counts authentication failures per key (client address + the credential tried): after a few, that key
 * must wait (429 with `Retry-After`), the wait doubling with each further failure; a success clears it.
 * Every local client shares the loopback address, so the credential is part of the key: someone guessing
 * one login's password slows down that login only, never the desktop app's token or other users.
 */
export class AuthThrottle {
  private readonly failures = new Map<string, FailureRecord>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Seconds the key must still wait, or 0. */
  waitFor(key: string): number {
    const record = this.failures.get(key);
    if (!record) return 0;
    const now = this.clock();
    if (this.expired(record, now)) {
      this.failures.delete(key);
      return 0;
    }
    return Math.max(0, Math.ceil((record.blockedUntil - now) / 1000));
  }

  fail(key: string): void {
    const now = this.clock();
    let record = this.failures.get(key);
    if (!record || this.expired(record, now)) record = { count: 0, first: now, blockedUntil: 0 };
    record.count += 1;
    if (record.count >= FREE_FAILURES) {
      const delay = Math.min(MAX_DELAY_S, 2 ** (record.count - FREE_FAILURES));
      record.blockedUntil = now + delay * 1000;
    }
    this.failures.delete(key);
    this.failures.set(key, record);
    if (this.failures.size > MAX_KEYS) this.prune(now, key);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }

  /** Number of keys tracked (for tests). */
  get size(): number {
    return this.failures.size;
  }

  private expired(record: FailureRecord, now: number): boolean {
    return now - record.first > WINDOW_MS && now >= record.blockedUntil;
  }

  /**
   * Too many keys (a flood of distinct logins or posts): the expired ones go, then the ones that matter least
   * (free again soonest, then fewest failures), down to nine tenths of the limit so that a flood prunes once
   * per thousand keys. Never `failed`, the key just counted: forgotten at once, its failures would never add up
   * to a wait, and once the throttle is full of blocked keys every new guesser would guess freely. The oldest
   * key is not forgotten first either: it may be the one guessed longest, blocked longest, and a flood of fresh
   * keys must not be a way to set it free.
   */
  private prune(now: number, failed: string): void {
    for (const [key, record] of this.failures) if (this.expired(record, now)) this.failures.delete(key);
    if (this.failures.size <= MAX_KEYS) return;
    const leastKept = [...this.failures]
      .filter(([key]) => key !== failed)
      .sort(
        ([, a], [, b]) => Math.max(a.blockedUntil, now) - Math.max(b.blockedUntil, now) || a.count - b.count,
      );
    for (const [key] of leastKept.slice(0, this.failures.size - Math.floor(MAX_KEYS * 0.9)))
      this.failures.delete(key);
  }
}

interface ParsedCredentials {
  scheme: 'bearer' | 'basic' | 'other';
  /** What the throttle counts failures against: the login, or the token's id. */
  identity: string;
  value: string;
}

function parseAuthorization(header: string): ParsedCredentials {
  const [scheme = '', ...rest] = header.trim().split(/\s+/);
  const value = rest.join(' ');
  if (/^bearer$/i.test(scheme)) {
    return { scheme: 'bearer', identity: parseToken(value)?.id ?? '?', value };
  }
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const login = (colon >= 0 ? decoded.slice(0, colon) : decoded).toLowerCase();
    return { scheme: 'basic', identity: login, value: decoded };
  }
  return { scheme: 'other', identity: scheme.toLowerCase(), value };
}

function callerOf(store: CalendarStore, userId: number): Caller | null {
  const user = store.users.get(userId);
  return user ? { userId: user.id, login: user.login, role: user.role } : null;
}

function authenticate(store: CalendarStore, credentials: ParsedCredentials): Caller {
  if (credentials.scheme === 'bearer') {
    const parsed = parseToken(credentials.value);
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
  if (credentials.scheme === 'basic') {
    const decoded = credentials.value;
    const colon = decoded.indexOf(':');
    const login = colon >= 0 ? decoded.slice(0, colon) : decoded;
    const password = normaliseAppPassword(colon >= 0 ? decoded.slice(colon + 1) : '');
    const user = store.users.getByKey(login.toLowerCase());
    if (!user) {
      throw new ApiError(401, 'invalid_username', 'Unknown username. Check again or try your email address.');
    }
    if (!password || !user.appPasswords.some((appPassword) => secretMatches(password, appPassword))) {
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

const WRITE = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);

/**
 * The header the calendar page sends with every request. Another origin's page cannot send it without a CORS
 * preflight, which this server never grants; so a write carrying it comes from a page of this origin.
 */
export const PAGE_HEADER = 'X-Requested-With';

/**
 * The caller a browser's session cookie names (see signInSessions.ts); null without one, or for one the server
 * no longer knows (it restarted, the user signed out): the page then shows its sign-in screen. A browser sends
 * a cookie by itself, so a write it authenticates must show it comes from the calendar's page: an `Origin`
 * (which `hostAndOriginGuard` has already found to be ours; Chromium and Firefox send one with every write),
 * or the {@link PAGE_HEADER} the page adds, which no other origin can send.
 */
function sessionCaller(ctx: ApiContext, store: CalendarStore, sessions: SignInSessions): MaybeCaller {
  const id = sessionCookieOf(ctx.get('Cookie'), ctx.req.socket.localPort ?? 0);
  if (!id) return null;
  const userId = sessions.sessionUser(id);
  const caller = userId === null ? null : callerOf(store, userId);
  if (caller && WRITE(ctx.method) && !ctx.get('Origin') && !ctx.get(PAGE_HEADER)) {
    throw new ApiError(
      403,
      'rest_cookie_without_origin',
      `A change signed in by the browser session must come from the calendar page itself (it sent neither Origin nor ${PAGE_HEADER}). Scripts use "Authorization: Bearer <token>" instead.`,
    );
  }
  return caller;
}

/**
 * Identifies the caller of a request from `Authorization` (else the session cookie): null when absent. Wrong credentials are 401 at
 * once, on reads too; repeated failures with the same credential from one client are 429 for a while. The
 * answer is kept in `ctx.state.caller`, so asking again in the same request costs nothing.
 */
export function callerIdentifier(
  store: CalendarStore,
  throttle: AuthThrottle,
  sessions?: SignInSessions,
): (ctx: ApiContext) => MaybeCaller {
  return (ctx) => {
    const known = ctx.state.caller;
    if (known !== undefined) return known;
    const header = ctx.get('Authorization');
    if (!header) return (ctx.state.caller = sessions ? sessionCaller(ctx, store, sessions) : null);
    const credentials = parseAuthorization(header);
    const key = `${ctx.request.ip} ${credentials.scheme}:${credentials.identity}`;
    let caller: Caller;
    try {
      caller = authenticate(store, credentials);
    } catch (error) {
      // Only failures are slowed down: the right secret always gets in, so nobody (a web page, a
      // misconfigured script) can lock the real owner out by failing on purpose.
      const alreadyBlocked = throttle.waitFor(key) > 0;
      throttle.fail(key);
      const wait = throttle.waitFor(key);
      if (alreadyBlocked) {
        throw new ApiError(
          429,
          'rest_too_many_auth_failures',
          `Too many failed sign-ins with these credentials. Wait ${wait} s, then check them.`,
          {},
          { 'Retry-After': String(wait) },
        );
      }
      throw error;
    }
    throttle.succeed(key);
    return (ctx.state.caller = caller);
  };
}
