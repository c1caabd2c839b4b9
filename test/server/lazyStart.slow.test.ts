import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDataFolder } from '../../bench/seedData';
import { DATA_FILE_NAME } from '../../src/main/store/store';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';

// A server started on a calendar it wrote begins from the data file's events' keys and reads the records
// between requests (issue 17). Its answers, from the first request on and while the reading goes on, are
// those of a server that read every record before answering.
const clock = () => new Date('2026-11-24T12:00:00Z');
let dataDir: string;
let sample: { categorySlug: string; eventId: number };

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'lazy-start-server-'));
  ({ sample } = await seedDataFolder(dataDir, { events: 20_000, now: clock(), seed: 5 }));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const start = () => startTestServer({ dataDir, clock });
/** Answered from the listing, the term counts and the records they show. */
const listingQuestions = () => [
  'events?per_page=50',
  'events?per_page=20&page=3&start_date=2026-12-01&end_date=2027-03-01',
  `events/${sample.eventId}`,
  'categories?per_page=50',
];
/** Answered after reading every record. */
const otherQuestions = () => [
  `events?categories=${sample.categorySlug}&per_page=10`,
  'events?search=concert&per_page=10',
];
/** One after another (the reading between requests goes on meanwhile). */
const answersOf = async (server: TestServer, questions: string[]) => {
  const answers = [];
  for (const path of questions) answers.push(await answerOf(server, path));
  return answers;
};
const answerOf = async (server: TestServer, path: string) => {
  const { status, body, headers } = await server.api(path, { auth: server.admin });
  // Without the port, which differs from one server to the next.
  const text = JSON.stringify(body).replaceAll(server.engine.origin, 'ORIGIN');
  return { path, status, total: headers.get('x-wp-total'), body: JSON.parse(text) as unknown };
};

describe('a server started from the events’ keys', () => {
  it('answers at once what a server that read every record answers, and takes changes right away', async () => {
    // Every record read and checked before the first answer: the fingerprint removed, the file is checked as
    // a foreign one (and vouched for again afterwards).
    await rm(join(dataDir, `${DATA_FILE_NAME}.written`));
    const full = await start();
    expect(full.engine.store.unreadEvents).toBe(0);
    await full.engine.seriesExtended;
    const expectedListings = await answersOf(full, listingQuestions());
    const expectedOthers = await answersOf(full, otherQuestions());
    const expected = [...expectedListings, ...expectedOthers];
    await full.close();
    for (const answer of expected) expect(answer.status, answer.path).toBe(200);

    const lazy = await start();
    expect(lazy.engine.store.unreadEvents).toBeGreaterThan(0);
    // While the records are still being read between requests: the listings first, then what reads them all.
    expect(await answersOf(lazy, listingQuestions())).toEqual(expectedListings);
    expect(lazy.engine.store.unreadEvents).toBeGreaterThan(0);
    expect(await answersOf(lazy, otherQuestions())).toEqual(expectedOthers);
    const created = await lazy.api('events', {
      method: 'POST',
      auth: lazy.admin,
      json: eventBody('Created at the start', 3, {}, clock().getTime()),
    });
    expect(created.status).toBe(201);
    expect((await lazy.api(`events/by-slug/${created.body.slug}`)).status).toBe(200);
    await lazy.engine.seriesExtended;
    expect(lazy.engine.store.unreadEvents).toBe(0);
    const after = await answersOf(lazy, [...listingQuestions(), ...otherQuestions()]);
    await lazy.close();
    // The created event is there, and nothing else changed.
    expect(Number(after[0].total)).toBe(Number(expected[0].total) + 1);
    expect(after.slice(2)).toEqual(expected.slice(2));
  });

  it('answers requests that need every record, sent during the reading, in full, and keeps a change sent with them', async () => {
    await rm(join(dataDir, `${DATA_FILE_NAME}.written`));
    const full = await start();
    await full.engine.seriesExtended;
    // The created event matches none of these (its title, no category): they answer the same either way.
    const questions = [...otherQuestions(), 'events?search=concert&per_page=5&page=7&status=any'];
    const expected = await answersOf(full, questions);
    const expectedTotal = (await answerOf(full, 'events?per_page=1')).total;
    await full.close();

    const lazy = await start();
    expect(lazy.engine.store.unreadEvents).toBeGreaterThan(0);
    // All at once, right after the start: the change waits for the reading (issue 32: it is not done in one
    // piece any more), the reads that need every record wait for it too, and none of them sees half of it.
    const [answers, created] = await Promise.all([
      Promise.all(questions.map((path) => answerOf(lazy, path))),
      lazy.api('events', {
        method: 'POST',
        auth: lazy.admin,
        json: eventBody('Created during the reading', 4, {}, clock().getTime()),
      }),
    ]);
    expect(answers).toEqual(expected);
    expect(created.status).toBe(201);
    await lazy.close();

    // Durable: the next start has it, and the calendar one more event.
    const again = await start();
    expect((await again.api(`events/by-slug/${created.body.slug}`)).status).toBe(200);
    expect(Number((await answerOf(again, 'events?per_page=1')).total)).toBe(Number(expectedTotal) + 1);
    await again.close();
  });

  it('leaves the reading in the background until the first client is answered, or nobody asked for a moment', async () => {
    const waitMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const asked = await start();
    const unread = asked.engine.store.unreadEvents;
    expect(unread).toBeGreaterThan(0);
    // Well within the quiet time the start gives its first client (timers fire in order: this one first).
    await waitMs(50);
    expect(asked.engine.store.unreadEvents).toBe(unread);
    const first = await answerOf(asked, 'events?per_page=50');
    expect(first.status).toBe(200);
    // Answered: the reading goes on from now, to the end.
    await asked.engine.seriesExtended;
    expect(asked.engine.store.unreadEvents).toBe(0);
    await asked.close();

    // Nobody asks: the reading begins by itself.
    const alone = await start();
    await alone.engine.seriesExtended;
    expect(alone.engine.store.unreadEvents).toBe(0);
    await alone.close();
  });
});
