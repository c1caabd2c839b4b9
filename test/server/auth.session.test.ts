import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, NS, startTestServer, type TestServer } from '../helpers/server';
import { ADMIN_NAMESPACE } from '../../src/shared/enums';
import { FREE_FAILURES } from '../../src/main/server/middleware/auth';
import { SIGN_IN_CODE_TTL_MS, SignInSessions } from '../../src/main/server/signInSessions';

/**
 * The browser's sign-in (issue 26, item 8): a one-time code, exchanged for an HttpOnly session cookie. The
 * permanent token never travels in an address; the cookie, sent by the browser by itself, signs in only
 * what the calendar page itself asks.
 */
let server: TestServer;
let now = Date.UTC(2026, 10, 28, 9, 0);
let admin: string;

beforeAll(async () => {
  server = await startTestServer({ clock: () => new Date(now) });
  admin = `${server.engine.origin}/wp-json/${ADMIN_NAMESPACE}/`;
});
afterAll(() => server.close());

/** What the page does: same origin, as Chromium sends it with every write. */
const page = () => ({ Origin: server.engine.origin });

async function newCode(auth = server.admin): Promise<{ code: string; link: string; expires_utc: string }> {
  const answer = await server.api(`${admin}signin-codes`, { method: 'POST', auth });
  expect(answer.status).toBe(201);
  return answer.body;
}

function exchange(code: string, headers: Record<string, string> = page()) {
  return server.api(`${admin}session`, { method: 'POST', json: { code }, headers });
}

/** `name=value` of the session cookie an answer sets. */
function cookieOf(setCookie: string | null): string {
  expect(setCookie).toBeTruthy();
  return setCookie!.split(';')[0];
}

describe('one-time sign-in codes', () => {
  it('a code signs in once, as an HttpOnly, SameSite=Strict cookie; the same code again is refused', async () => {
    const { code, link } = await newCode();
    expect(link).toBe(`${server.engine.origin}/#/signin?code=${code}`);
    expect(link).not.toContain('cdt_');
    const first = await exchange(code);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ login: 'admin', role: 'administrator' });
    const setCookie = first.headers.get('Set-Cookie')!;
    expect(setCookie).toMatch(/^calendar_desk_session_\d+=[A-Za-z0-9_-]{40,}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');
    expect(setCookie).not.toContain('cdt_');

    const again = await exchange(code);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('rest_invalid_signin_code');
    expect(again.body.message).toContain('calendar-desk signin-link');
    expect(again.headers.get('Set-Cookie')).toBeNull();
  });

  it('a code expires after five minutes', async () => {
    const { code } = await newCode();
    const late = await newCode();
    now += SIGN_IN_CODE_TTL_MS - 1000;
    expect((await exchange(code)).status).toBe(201);
    now += 2000;
    const expired = await exchange(late.code);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('rest_invalid_signin_code');
  });

  it('the link engine.signInLink() gives (what serve prints) carries a working code, never the token', async () => {
    const link = server.engine.signInLink();
    expect(link).not.toContain('cdt_');
    expect(link).not.toContain(server.engine.adminToken);
    const code = new URL(link).hash.replace('#/signin?code=', '');
    expect((await exchange(code)).status).toBe(201);
  });

  it('nobody without credentials gets a code', async () => {
    const answer = await server.api(`${admin}signin-codes`, { method: 'POST' });
    expect(answer.status).toBe(401);
  });

  it('wrong codes are slowed down like wrong tokens, and the right code still gets in', async () => {
    const { code } = await newCode();
    for (let attempt = 1; attempt < FREE_FAILURES; attempt += 1)
      expect((await exchange(`wrong-${attempt}`)).status).toBe(401);
    // The tenth failure starts the wait; every guess made during it is a 429.
    expect((await exchange('wrong-10')).status).toBe(401);
    const blocked = await exchange('wrong-11');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('rest_too_many_auth_failures');
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Whoever guesses cannot keep the owner out: the right code works at once.
    expect((await exchange(code)).status).toBe(201);
    expect((await exchange('wrong-12')).status).toBe(401);
  });
});

describe('the session cookie', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = cookieOf((await exchange((await newCode()).code)).headers.get('Set-Cookie'));
  });

  it('signs in reads and the page’s own writes', async () => {
    const settings = await server.api(`${admin}settings`, { headers: { Cookie: cookie } });
    expect(settings.status).toBe(200);
    expect(settings.body.user).toEqual({ login: 'admin', role: 'administrator' });
    const created = await server.api('events', {
      method: 'POST',
      json: eventBody('Made by the page', 3, {}, now),
      headers: { Cookie: cookie, ...page() },
    });
    expect(created.status).toBe(201);
    expect(created.body.author).toBe('1');
  });

  it('a write from another origin with the cookie is refused, and so is one that shows no origin', async () => {
    const before = (await server.api('events?status=any&per_page=50', { auth: server.admin })).body.total;
    const foreign = await server.api('events', {
      method: 'POST',
      json: eventBody('Planted by another site', 3, {}, now),
      headers: { Cookie: cookie, Origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('rest_forbidden_origin');
    // Another server on this machine is another origin too (cookies do not tell ports apart).
    const otherPort = await server.api('events', {
      method: 'POST',
      json: eventBody('Planted by a local page', 3, {}, now),
      headers: { Cookie: cookie, Origin: 'http://127.0.0.1:1' },
    });
    expect(otherPort.status).toBe(403);
    const noOrigin = await server.api('events', {
      method: 'POST',
      json: eventBody('Sent without an origin', 3, {}, now),
      headers: { Cookie: cookie },
    });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.code).toBe('rest_cookie_without_origin');
    // The page's own header stands for the Origin (another origin cannot send it without a CORS preflight).
    const withHeader = await server.api('events', {
      method: 'POST',
      json: eventBody('Sent by the page without an origin', 3, {}, now),
      headers: { Cookie: cookie, 'X-Requested-With': 'calendar-desk' },
    });
    expect(withHeader.status).toBe(201);
    await server.api(`events/${withHeader.body.id}?force=true`, { method: 'DELETE', auth: server.admin });
    const after = (await server.api('events?status=any&per_page=50', { auth: server.admin })).body.total;
    expect(after).toBe(before);
  });

  it('no spelling of a write gets the cookie through without the page: forms, text/plain, _method, ?rest_route=, GET', async () => {
    const victim = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Victim', 4, {}, now),
    });
    expect(victim.status).toBe(201);
    const id = victim.body.id as number;
    const { origin } = server.engine;
    const form = 'title=Planted&start_date=2031-01-01+10:00:00&end_date=2031-01-01+11:00:00';
    // What a page on another site (or another port of this machine) can make a browser send with the cookie.
    const attempts: Array<[string, string, string, Record<string, string>]> = [
      ['POST', `${NS}/events`, form, { 'Content-Type': 'application/x-www-form-urlencoded' }],
      ['POST', `${NS}/events`, form, { 'Content-Type': 'text/plain' }],
      ['POST', `${NS}/events`, form, { 'Content-Type': 'multipart/form-data; boundary=x' }],
      ['POST', `${NS}/events/${id}?_method=DELETE`, '', {}],
      [
        'POST',
        `${NS}/events/${id}`,
        '_method=DELETE',
        { 'Content-Type': 'application/x-www-form-urlencoded' },
      ],
      ['POST', `?rest_route=/cal/events/v1/events/${id}&_method=DELETE`, '', {}],
      [
        'POST',
        `index.php?rest_route=/cal/events/v1/events/${id}`,
        'title=Renamed',
        { 'Content-Type': 'text/plain' },
      ],
      ['POST', `it/wp-json/cal/events/v1/events/${id}`, 'title=Renamed', { 'Content-Type': 'text/plain' }],
      ['POST', `wp-json/CAL/events/v1/events/${id}`, 'title=Renamed', { 'Content-Type': 'text/plain' }],
      [
        'POST',
        `wp-json/calendar-desk/v1/users`,
        'login=mallory&role=administrator',
        { 'Content-Type': 'text/plain' },
      ],
      ['POST', `${NS}/events`, form, { 'Content-Type': 'text/plain', Origin: 'null' }],
      ['POST', `${NS}/events`, form, { 'Content-Type': 'text/plain', Origin: 'http://127.0.0.1:1' }],
    ];
    for (const [method, path, body, headers] of attempts) {
      const answer = await fetch(`${origin}/${path}`, {
        method,
        headers: { Cookie: cookie, ...headers },
        body: body || undefined,
      });
      expect(answer.status, `${method} /${path} ${JSON.stringify(headers)}`).toBe(403);
      expect(((await answer.json()) as { code: string }).code).toMatch(
        /^rest_(cookie_without_origin|forbidden_origin)$/,
      );
    }
    // A GET (an image, a link) never writes, whatever it says it is.
    for (const path of [
      `${NS}/events/${id}?_method=DELETE`,
      `?rest_route=/cal/events/v1/events/${id}&_method=DELETE`,
      `wp-json/calendar-desk/v1/users?_method=POST&login=mallory&role=administrator`,
    ]) {
      const answer = await fetch(`${origin}/${path}`, {
        headers: { Cookie: cookie, 'X-HTTP-Method-Override': 'DELETE' },
      });
      expect(answer.status, path).toBeLessThan(500);
    }
    const after = await server.api(`events/${id}`, { auth: server.admin });
    expect(after.body).toMatchObject({ title: 'Victim', status: 'publish' });
    const users = await server.api(`${admin}users`, { auth: server.admin });
    expect(JSON.stringify(users.body)).not.toContain('mallory');
    const planted = await server.api('events?search=Planted&status=any', { auth: server.admin });
    expect(planted.body.events).toEqual([]);
  });

  it('an unknown cookie signs nobody in (the page shows its sign-in screen)', async () => {
    const settings = await server.api(`${admin}settings`, {
      headers: { Cookie: cookie.replace(/=.*/, '=not-a-session') },
    });
    expect(settings.status).toBe(401);
  });

  it('signing out ends the session on the server, not only in the browser', async () => {
    const { code } = await newCode();
    const mine = cookieOf((await exchange(code)).headers.get('Set-Cookie'));
    const out = await server.api(`${admin}session`, {
      method: 'DELETE',
      headers: { Cookie: mine, ...page() },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('Set-Cookie')).toContain('Max-Age=0');
    expect((await server.api(`${admin}settings`, { headers: { Cookie: mine } })).status).toBe(401);
    // Other browsers' sessions stay.
    expect((await server.api(`${admin}settings`, { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it('a user asking for codes or sessions in a loop pushes out only their own, never the administrator’s', async () => {
    const { code } = await newCode();
    const contributor = await server.userHeaders('connie', 'contributor');
    for (let i = 0; i < 40; i++) await newCode(contributor);
    // The administrator's code, issued first, still signs in.
    expect((await exchange(code)).status).toBe(201);

    // Sessions, past the most the server keeps: the administrator's, opened first, stays.
    const sessions = new SignInSessions(() => now);
    const admins = sessions.openSession(1);
    const contributors = Array.from({ length: 1_100 }, () => sessions.openSession(7));
    expect(sessions.sessionUser(admins)).toBe(1);
    // The contributor's own newest are kept, their oldest went.
    expect(sessions.sessionUser(contributors.at(-1)!)).toBe(7);
    expect(sessions.sessionUser(contributors[0]!)).toBeNull();
  });

  it('a pasted token opens a session too, and revoking the user ends its sessions', async () => {
    const editor = await server.userHeaders('eve', 'editor');
    const opened = await server.api(`${admin}session`, {
      method: 'POST',
      json: {},
      auth: editor,
      headers: page(),
    });
    expect(opened.status).toBe(201);
    expect(opened.body).toEqual({ login: 'eve', role: 'editor' });
    const eve = cookieOf(opened.headers.get('Set-Cookie'));
    expect((await server.api(`${admin}settings`, { headers: { Cookie: eve } })).body.user.login).toBe('eve');
    const revoked = await server.api(`${admin}users/eve/revoke`, { method: 'POST', auth: server.admin });
    expect(revoked.status).toBe(200);
    expect((await server.api(`${admin}settings`, { headers: { Cookie: eve } })).status).toBe(401);
  });

  it('no session is opened without a code or credentials', async () => {
    const answer = await server.api(`${admin}session`, { method: 'POST', json: {}, headers: page() });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('Set-Cookie')).toBeNull();
  });
});
