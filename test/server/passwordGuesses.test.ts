import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { FREE_FAILURES } from '../../src/main/server/middleware/auth';

/**
 * Wrong `?password=` guesses of a protected event (or venue) are throttled per client and post as sign-in
 * failures are (CONTRACT §5): after a few, 429 with Retry-After, and the right password too until the wait ends.
 */
let server: TestServer;
let now = Date.parse('2030-03-01T12:00:00Z');
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer({ clock: () => new Date(now) });
  const protectedEvent = async (name: string, password: string) => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody(
        name,
        5,
        { status: 'publish', post_password: password, description: 'hidden text' },
        now,
      ),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ids[name] = created.body.id;
  };
  await protectedEvent('Board meeting', 'letmein');
  await protectedEvent('Other meeting', 'opensesame');
  const venue = await server.api('venues', {
    method: 'POST',
    auth: server.admin,
    json: { venue: 'Secret cellar', status: 'publish', city: 'Pisa' },
  });
  expect(venue.status, JSON.stringify(venue.body)).toBe(201);
  ids.venue = venue.body.id;
  // The API has no argument for a venue's password (a sync brings it): set in the store.
  const { store } = server.engine;
  await store.mutate((tx) => tx.putVenue({ ...store.venues.get(ids.venue)!, password: 'cellar' }));
});
afterAll(() => server.close());

const read = (path: string, password: string) =>
  server.api(`${path}?password=${encodeURIComponent(password)}`);

function expectLocked(result: { status: number; headers: Headers; body: unknown }, kind: string): number {
  expect(result.status).toBe(429);
  const wait = Number(result.headers.get('Retry-After'));
  expect(Number.isInteger(wait) && wait > 0).toBe(true);
  expect(result.body).toEqual({
    code: 'rest_too_many_password_guesses',
    message: `Too many wrong passwords for this ${kind}. Wait ${wait} s, then try again with the right one.`,
    data: { status: 429 },
  });
  return wait;
}

describe('guessing the password of a protected event', () => {
  it('is answered 429 after a few wrong guesses, the right password too until the wait is over', async () => {
    const path = `events/${ids['Board meeting']}`;
    // Right once (and kept by no cache: the same address must be counted again later).
    expect((await read(path, 'letmein')).status).toBe(200);
    for (let guess = 1; guess <= FREE_FAILURES; guess++) {
      const wrong = await read(path, `guess-${guess}`);
      expect(wrong.status, `guess ${guess}`).toBe(403);
      expect(wrong.body.code).toBe('event-password-protected');
    }
    expectLocked(await read(path, 'guess-again'), 'event');
    const wait = expectLocked(await read(path, 'letmein'), 'event');
    expectLocked(await read(`events/by-slug/board-meeting`, 'letmein'), 'event');

    // Another event is not locked by guesses on this one.
    const other = await read(`events/${ids['Other meeting']}`, 'opensesame');
    expect(other.status).toBe(200);
    expect(other.body.description).toBe('hidden text');

    // A list does not unlock it meanwhile either (it shows the event locked).
    const list = await read('events', 'letmein');
    expect(list.status).toBe(200);
    const listed = list.body.events.find((event: { id: number }) => event.id === ids['Board meeting']);
    expect(listed.description).toBe('');

    now += wait * 1000;
    const after = await read(path, 'letmein');
    expect(after.status).toBe(200);
    expect(after.body.description).toBe('hidden text');
  });

  it('counts wrong guesses made through a list too', async () => {
    const path = `events/${ids['Other meeting']}`;
    for (let guess = 1; guess <= FREE_FAILURES; guess++) {
      const list = await read('events', `list-guess-${guess}`);
      expect(list.status).toBe(200);
    }
    expectLocked(await read(path, 'opensesame'), 'event');
    const list = await read('events', 'opensesame');
    const listed = list.body.events.find((event: { id: number }) => event.id === ids['Other meeting']);
    expect(listed.description).toBe('');
  });

  it('leaves those who may edit the event alone, whatever password they send', async () => {
    const path = `events/${ids['Other meeting']}?context=edit&password=nonsense`;
    for (let i = 0; i < FREE_FAILURES + 2; i++) {
      const result = await server.api(path, { auth: server.admin });
      expect(result.status).toBe(200);
    }
  });

  it('throttles a protected venue the same way', async () => {
    const path = `venues/${ids.venue}`;
    for (let guess = 1; guess <= FREE_FAILURES; guess++)
      expect((await read(path, `v-${guess}`)).status).toBe(200);
    const wait = expectLocked(await read(path, 'cellar'), 'venue');
    now += wait * 1000;
    const after = await read(path, 'cellar');
    expect(after.status).toBe(200);
    expect(after.body.city).toBe('Pisa');
  });
});
