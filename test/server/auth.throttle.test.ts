import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { addUser } from '../../src/main/core/users';
import { AuthThrottle, FREE_FAILURES } from '../../src/main/server/middleware/auth';
import { expectError } from './safety.http';

/** CONTRACT §5: repeated failures from one client are slowed down (429 with Retry-After). */
describe('AuthThrottle (unit, with a fake clock)', () => {
  const setup = () => {
    let now = 1_000_000;
    const throttle = new AuthThrottle(() => now);
    return { throttle, advance: (ms: number) => (now += ms) };
  };

  it('lets the first failures through, then asks to wait', () => {
    const { throttle } = setup();
    for (let i = 1; i < FREE_FAILURES; i++) {
      throttle.fail('k');
      expect(throttle.waitFor('k')).toBe(0);
    }
    throttle.fail('k');
    expect(throttle.waitFor('k')).toBeGreaterThan(0);
  });

  it('doubles the wait with each further failure, up to a cap', () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < FREE_FAILURES; i++) throttle.fail('k');
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const wait = throttle.waitFor('k');
      waits.push(wait);
      advance(wait * 1000);
      expect(throttle.waitFor('k')).toBe(0);
      throttle.fail('k');
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    for (let i = 0; i < 40; i++) throttle.fail('k');
    expect(throttle.waitFor('k')).toBeLessThanOrEqual(300);
  });

  it('forgets failures after a success', () => {
    const { throttle } = setup();
    for (let i = 1; i < FREE_FAILURES; i++) throttle.fail('k');
    throttle.succeed('k');
    for (let i = 1; i < FREE_FAILURES; i++) throttle.fail('k');
    expect(throttle.waitFor('k')).toBe(0);
  });

  it('forgets old failures after the counting window', () => {
    const { throttle, advance } = setup();
    for (let i = 1; i < FREE_FAILURES; i++) throttle.fail('k');
    advance(11 * 60_000);
    throttle.fail('k');
    expect(throttle.waitFor('k')).toBe(0);
  });

  it('keeps keys apart', () => {
    const { throttle } = setup();
    for (let i = 0; i < FREE_FAILURES; i++) throttle.fail('a');
    expect(throttle.waitFor('a')).toBeGreaterThan(0);
    expect(throttle.waitFor('b')).toBe(0);
  });

  it('a flood of blocked keys does not push out the key guessed longest (its wait stays)', () => {
    const { throttle, advance } = setup();
    // A guesser at one event's password, blocked for 32 s and more.
    for (let i = 0; i < FREE_FAILURES; i++) throttle.fail('target');
    for (let round = 0; round < 5; round++) {
      advance(throttle.waitFor('target') * 1000);
      throttle.fail('target');
    }
    const waiting = throttle.waitFor('target');
    expect(waiting).toBeGreaterThanOrEqual(32);
    // Then 12,000 other keys failed until each is blocked: more than the throttle keeps.
    for (let key = 0; key < 12_000; key++)
      for (let i = 0; i < FREE_FAILURES; i++) throttle.fail(`flood-${key}`);
    expect(throttle.size).toBeLessThanOrEqual(10_000);
    expect(throttle.waitFor('target')).toBe(waiting);
    // And a new guesser, with the throttle full of blocked keys, is still counted and made to wait.
    for (let i = 0; i < FREE_FAILURES; i++) throttle.fail('newcomer');
    expect(throttle.waitFor('newcomer')).toBeGreaterThan(0);
  });

  it('does not grow without bound under a flood of distinct keys', () => {
    const { throttle } = setup();
    for (let i = 0; i < 12_000; i++) throttle.fail(`flood-${i}`);
    expect(throttle.size).toBeLessThanOrEqual(10_000);
  });
});

describe('throttling over HTTP', () => {
  let server: TestServer;
  let now = Date.parse('2030-03-01T12:00:00Z');
  beforeAll(async () => {
    server = await startTestServer({ clock: () => new Date(now) });
  });
  afterAll(() => server.close());

  const basic = (login: string, password: string) => ({
    Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
  });
  const user = async (login: string) =>
    (await addUser(server.engine.store, login, 'editor', () => new Date(now))).password;
  const attempt = (login: string, password: string) =>
    server.api('categories', { auth: basic(login, password) });

  it('answers further failures with 429 and Retry-After, but never locks the right password out', async () => {
    const password = await user('victim');
    for (let i = 0; i < FREE_FAILURES; i++) {
      expectError(await attempt('victim', `wrong-${i}`), 401, 'incorrect_password');
    }
    const blocked = await attempt('victim', 'wrong-again');
    expectError(blocked, 429);
    const retryAfter = Number(blocked.headers.get('Retry-After'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // Someone failing on purpose (a hostile web page, a broken script) cannot lock the owner out.
    expect((await attempt('victim', password)).status).toBe(200);
    // The right password clears the record: the next failure is an ordinary 401 again.
    expectError(await attempt('victim', 'wrong-after'), 401, 'incorrect_password');
  });

  it('keeps answering failures with 429 while the wait lasts, and waits longer each time', async () => {
    await user('stubborn');
    for (let i = 0; i < FREE_FAILURES; i++) await attempt('stubborn', `wrong-${i}`);
    const first = Number((await attempt('stubborn', 'again')).headers.get('Retry-After'));
    now += 1000; // still within the wait
    const second = await attempt('stubborn', 'again');
    expectError(second, 429);
    expect(Number(second.headers.get('Retry-After'))).toBeGreaterThan(first);
  });

  it('does not lock out other credentials of the same client', async () => {
    const password = await user('bystander');
    await user('target');
    for (let i = 0; i <= FREE_FAILURES; i++) await attempt('target', `wrong-${i}`);
    expectError(await attempt('target', 'wrong'), 429);
    expect((await attempt('bystander', password)).status).toBe(200);
    expect((await server.api('categories', { auth: server.admin })).status).toBe(200);
    const write = await server.api('categories', {
      method: 'POST',
      auth: server.admin,
      json: { name: 'Admin unaffected' },
    });
    expect(write.status).toBe(201);
  });

  it('throttles bad bearer tokens and unknown logins too', async () => {
    for (let i = 0; i < FREE_FAILURES; i++) {
      expectError(await server.api('events', { auth: { Authorization: `Bearer junk-${i}` } }), 401);
    }
    expectError(await server.api('events', { auth: { Authorization: 'Bearer junk' } }), 429);
    for (let i = 0; i < FREE_FAILURES; i++) {
      expectError(await attempt('ghost', `pw-${i}`), 401, 'invalid_username');
    }
    expectError(await attempt('ghost', 'pw'), 429);
    // The real admin token is a different credential.
    expect((await server.api('events', { auth: server.admin })).status).toBe(200);
  });

  it('resets the count after a success', async () => {
    const password = await user('forgetful');
    for (let i = 1; i < FREE_FAILURES; i++) {
      expectError(await attempt('forgetful', `wrong-${i}`), 401, 'incorrect_password');
    }
    expect((await attempt('forgetful', password)).status).toBe(200);
    // Without the reset, these would cross the limit and be 429.
    for (let i = 1; i < FREE_FAILURES; i++) {
      expectError(await attempt('forgetful', `again-${i}`), 401, 'incorrect_password');
    }
    expect((await attempt('forgetful', password)).status).toBe(200);
  });

  it('does not count anonymous requests or successes as failures', async () => {
    for (let i = 0; i < FREE_FAILURES * 2; i++) {
      expect((await server.api('events')).status).toBe(200);
      expect((await server.api('events', { auth: server.admin })).status).toBe(200);
    }
  });
});
