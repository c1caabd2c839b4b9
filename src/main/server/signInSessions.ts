import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a one-time sign-in code may be exchanged for a session. */
export const SIGN_IN_CODE_TTL_MS = 5 * 60_000;
/** How long a browser session lasts without being used. */
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60_000;
/**
 * The session cookie's name on a port: browsers share a host's cookies between its ports, so two calendars
 * served on 127.0.0.1 (two data folders) keep a session each.
 */
export const sessionCookieName = (port: number) => `calendar_desk_session_${port}`;
/** Codes kept waiting at most (the oldest goes first): each is a way in, so never an unbounded pile. */
const MAX_CODES = 32;
const MAX_SESSIONS = 1_000;
/**
 * What one user may hold of either: past it, that user's own oldest goes. A contributor asking for codes or
 * sessions in a loop then never pushes out the administrator's (the link `serve` printed, a signed-in page).
 */
const MAX_CODES_PER_USER = 4;
const MAX_SESSIONS_PER_USER = 50;

interface PendingCode {
  hash: Buffer;
  userId: number;
  expires: number;
}

interface Session {
  userId: number;
  lastUsed: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * One-time sign-in codes and the browser sessions they open, kept in the server's memory only: a code is what
 * `serve` prints and a sign-in link carries (never the permanent admin token, which would stay in the
 * browser's history), valid once and for a few minutes; the session is an HttpOnly cookie. Both end with the
 * server. Only hashes are kept, and codes are compared in constant time.
 */
export class SignInSessions {
  private codes: PendingCode[] = [];
  /** By the SHA-256 of the session id: the id itself (256 random bits) is never kept. */
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** A fresh code that signs in as `userId`, once, within {@link SIGN_IN_CODE_TTL_MS}. */
  issueCode(userId: number): { code: string; expires: Date } {
    const now = this.clock();
    const code = randomBytes(24).toString('base64url');
    this.codes = this.codes.filter((pending) => pending.expires > now);
    const own = this.codes.filter((pending) => pending.userId === userId);
    if (own.length >= MAX_CODES_PER_USER) this.codes = this.codes.filter((pending) => pending !== own[0]);
    if (this.codes.length >= MAX_CODES) this.codes.shift();
    const expires = now + SIGN_IN_CODE_TTL_MS;
    this.codes.push({ hash: sha256(code), userId, expires });
    return { code, expires: new Date(expires) };
  }

  /** The user a code signs in as, and the code is spent; null for an unknown, used or expired code. */
  redeemCode(code: string): number | null {
    const now = this.clock();
    const candidate = sha256(code);
    let found: PendingCode | undefined;
    // Every pending code is compared, whichever matches: the time taken says nothing about any of them.
    for (const pending of this.codes) if (timingSafeEqual(pending.hash, candidate)) found = pending;
    if (!found) return null;
    this.codes = this.codes.filter((pending) => pending !== found);
    return found.expires > now ? found.userId : null;
  }

  /** Opens a session for `userId`: the id to set as the cookie. */
  openSession(userId: number): string {
    const now = this.clock();
    // The map is kept in order of use: the first of the user's is its least recently used.
    const own = [...this.sessions].filter(([, session]) => session.userId === userId);
    if (own.length >= MAX_SESSIONS_PER_USER) this.sessions.delete(own[0]![0]);
    if (this.sessions.size >= MAX_SESSIONS) {
      for (const [key, session] of this.sessions)
        if (now - session.lastUsed > SESSION_IDLE_MS) this.sessions.delete(key);
      // Still full: the least recently used session goes (the map is kept in order of use).
      if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    }
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(sha256(id).toString('hex'), { userId, lastUsed: now });
    return id;
  }

  /** The user of a live session, which counts as a use; null for an unknown or idle one. */
  sessionUser(id: string): number | null {
    const key = sha256(id).toString('hex');
    const session = this.sessions.get(key);
    if (!session) return null;
    const now = this.clock();
    this.sessions.delete(key);
    if (now - session.lastUsed > SESSION_IDLE_MS) return null;
    session.lastUsed = now;
    this.sessions.set(key, session);
    return session.userId;
  }

  /** Ends a session (signing out). */
  closeSession(id: string): void {
    this.sessions.delete(sha256(id).toString('hex'));
  }

  /** Ends every session and code of a user (its credentials were revoked). */
  closeAllOf(userId: number): void {
    for (const [key, session] of this.sessions) if (session.userId === userId) this.sessions.delete(key);
    this.codes = this.codes.filter((pending) => pending.userId !== userId);
  }
}

/** The session id a request's `Cookie` header carries, if any. */
export function sessionCookieOf(cookieHeader: string | undefined, port: number): string | undefined {
  if (!cookieHeader) return undefined;
  const wanted = sessionCookieName(port);
  for (const part of cookieHeader.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === wanted) return value.join('=') || undefined;
  }
  return undefined;
}

/**
 * The `Set-Cookie` of a session: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), the whole origin. Not Secure: the server speaks plain HTTP on loopback. No Max-Age: the browser drops
 * it when closed, the server when it stops.
 */
export const sessionCookie = (port: number, id: string) =>
  `${sessionCookieName(port)}=${id}; Path=/; HttpOnly; SameSite=Strict`;

/** The `Set-Cookie` that removes the session cookie. */
export const clearedSessionCookie = (port: number) =>
  `${sessionCookieName(port)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
