import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { archiveIds, at, createEvent, expectError, expectEventRecord } from './events.helpers';

// Repeating events through the real HTTP server (issue 13): a series is its head plus one event per occurrence,
// listed with `post_parent`; updates and deletions take a scope. The clock is the test's: 1 September 2026.

const START = Date.parse('2026-09-01T10:00:00Z');
const WEEKLY_8 = 'RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=TU';

interface EventRecord {
  id: number;
  uid: string;
  title: string;
  slug: string;
  status: string;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  recurrence: string[];
  recurrence_id: string | null;
}

describe('repeating events (series) through the API', () => {
  let server: TestServer;
  const now = START;

  beforeAll(async () => {
    server = await startTestServer({ clock: () => new Date(now) });
  });
  afterAll(() => server.close());

  /** The rehearsal: Tuesdays 19:30–21:30 Rome time from 6 October 2026 (the clocks go back on 25 October). */
  const rehearsals = (title: string, lines: string[] = [WEEKLY_8]) =>
    createEvent(
      server,
      at(title, '2026-10-06 19:30:00', '2026-10-06 21:30:00', {
        timezone: 'Europe/Rome',
        status: 'publish',
        recurrence: lines,
      }),
    ) as Promise<EventRecord>;

  /** The rest of a series (its occurrences but the head), trashed ones included, by original start. */
  const occurrencesOf = async (headId: number): Promise<EventRecord[]> => {
    const result = await server.api(`events?post_parent=${headId}&per_page=50&status=publish,trash`, {
      auth: server.admin,
    });
    archiveIds(result);
    return [...result.body.events].sort((a: EventRecord, b: EventRecord) =>
      a.recurrence_id!.localeCompare(b.recurrence_id!),
    );
  };
  const live = (events: EventRecord[]) => events.filter((event) => event.status !== 'trash');
  const read = async (id: number): Promise<EventRecord> => {
    const result = await server.api(`events/${id}`, { auth: server.admin });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return expectEventRecord(result.body) as unknown as EventRecord;
  };
  const change = (id: number, json: Record<string, unknown>) =>
    server.api(`events/${id}`, { method: 'POST', auth: server.admin, json });
  const remove = (id: number, scope?: string) =>
    server.api(`events/${id}${scope ? `?scope=${scope}` : ''}`, { method: 'DELETE', auth: server.admin });

  it('creates eight weekly 19:30 rehearsals that stay at 19:30 in Rome across the October change', async () => {
    const head = await rehearsals('Choir rehearsal');
    expect(head.recurrence).toEqual([WEEKLY_8]);
    expect(head.recurrence_id).toBe('2026-10-06 19:30:00');
    const rest = await occurrencesOf(head.id);
    expect(rest).toHaveLength(7);
    expect([head, ...rest].map((event) => event.start_date)).toEqual(
      ['06', '13', '20', '27']
        .map((day) => `2026-10-${day} 19:30:00`)
        .concat(['03', '10', '17', '24'].map((day) => `2026-11-${day} 19:30:00`)),
    );
    // Summer time (UTC+2) before 25 October, winter time (UTC+1) after: the UTC hour moves, the local one not.
    expect(rest[1].utc_start_date).toBe('2026-10-20 17:30:00');
    expect(rest[2].utc_start_date).toBe('2026-10-27 18:30:00');
    expect(rest.every((event) => event.end_date.endsWith('21:30:00'))).toBe(true);
    expect(new Set([head, ...rest].map((event) => event.uid)).size).toBe(8);
    // Each occurrence is an event of its own that shows its series' rule, read-only.
    const third = await read(rest[1].id);
    expect(third.recurrence).toEqual([WEEKLY_8]);
    expect(third.recurrence_id).toBe('2026-10-20 19:30:00');
    // A single event says it does not repeat.
    const single = await createEvent(server, at('One-off', '2026-10-01 10:00:00', '2026-10-01 11:00:00'));
    expect(single.recurrence).toEqual([]);
    expect(single.recurrence_id).toBeNull();
  });

  it('updates one occurrence (scope this, the default), then all that follow the series', async () => {
    const head = await rehearsals('Rehearsal A');
    const rest = await occurrencesOf(head.id);
    const changed = await change(rest[1].id, { title: 'Rehearsal A in the crypt' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await read(head.id)).title).toBe('Rehearsal A');
    expect((await read(rest[2].id)).title).toBe('Rehearsal A');

    const all = await change(rest[4].id, {
      title: 'Rehearsal A (tenors)',
      slug: 'tenors-rehearsal',
      scope: 'all',
    });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    // The slug sent is the edited event's own (slugs are unique); the others keep theirs.
    expect(all.body.slug).toBe('tenors-rehearsal');
    expect((await read(head.id)).slug).toBe(head.slug);
    const titles = [await read(head.id), ...(await occurrencesOf(head.id))].map((event) => event.title);
    // The occurrence changed on its own keeps its title.
    expect(titles).toEqual([
      'Rehearsal A (tenors)',
      'Rehearsal A (tenors)',
      'Rehearsal A in the crypt',
      ...Array(5).fill('Rehearsal A (tenors)'),
    ]);
  });

  it('moves every occurrence that follows the series when the time changes (scope all)', async () => {
    const head = await rehearsals('Rehearsal B');
    const rest = await occurrencesOf(head.id);
    await change(rest[0].id, { start_date: '2026-10-13 18:00:00', end_date: '2026-10-13 19:00:00' });
    const moved = await change(rest[3].id, {
      start_date: '2026-11-03 20:00:00',
      end_date: '2026-11-03 22:00:00',
      scope: 'all',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const after = [await read(head.id), ...(await occurrencesOf(head.id))];
    expect(after.map((event) => event.id)).toEqual([head.id, ...rest.map((event) => event.id)]);
    expect(after.map((event) => event.start_date.slice(11))).toEqual([
      '20:00:00',
      '18:00:00',
      ...Array(6).fill('20:00:00'),
    ]);
    expect(after[7].start_date).toBe('2026-11-24 20:00:00');
    expect(after[7].utc_start_date).toBe('2026-11-24 19:00:00');
  });

  it('splits the series at an occurrence (scope following): the rest becomes a new series', async () => {
    const head = await rehearsals('Rehearsal C');
    const rest = await occurrencesOf(head.id);
    const fifth = rest[3];
    const split = await change(fifth.id, { title: 'Rehearsal C (winter)', scope: 'following' });
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    expect(split.body.uid).toBe(fifth.uid);
    expect(split.body.uid).not.toBe(head.uid);
    expect(split.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU']);

    const oldHead = await read(head.id);
    expect(oldHead.recurrence).toHaveLength(1);
    expect(oldHead.recurrence[0]).toMatch(/^RRULE:FREQ=WEEKLY;UNTIL=20261103T182959Z;BYDAY=TU$/);
    const first = await occurrencesOf(head.id);
    expect(first.map((event) => event.start_date.slice(0, 10))).toEqual([
      '2026-10-13',
      '2026-10-20',
      '2026-10-27',
    ]);
    expect(first.every((event) => event.title === 'Rehearsal C')).toBe(true);
    const second = await occurrencesOf(fifth.id);
    expect(second.map((event) => event.start_date.slice(0, 10))).toEqual([
      '2026-11-10',
      '2026-11-17',
      '2026-11-24',
    ]);
    expect(second.every((event) => event.title === 'Rehearsal C (winter)')).toBe(true);
    expect(second.every((event) => event.recurrence[0] === 'RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU')).toBe(true);
  });

  it('moves this and the following occurrences to a new time, the earlier ones staying (scope following)', async () => {
    const head = await rehearsals('Rehearsal H');
    const rest = await occurrencesOf(head.id);
    const moved = await change(rest[2].id, {
      start_date: '2026-10-27 20:00:00',
      end_date: '2026-10-27 21:00:00',
      scope: 'following',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect([head, ...(await occurrencesOf(head.id))].map((event) => event.start_date)).toEqual([
      '2026-10-06 19:30:00',
      '2026-10-13 19:30:00',
      '2026-10-20 19:30:00',
    ]);
    expect((await occurrencesOf(rest[2].id)).map((event) => [event.start_date, event.end_date])).toEqual(
      ['03', '10', '17', '24'].map((day) => [`2026-11-${day} 20:00:00`, `2026-11-${day} 21:00:00`]),
    );
    expect(moved.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=TU']);
    expect(moved.body.recurrence_id).toBe('2026-10-27 20:00:00');
  });

  it('repeats all-day events by date', async () => {
    const head = await createEvent(
      server,
      at('Market day', '2026-10-01', '2026-10-01', {
        all_day: true,
        status: 'publish',
        recurrence: ['RRULE:FREQ=MONTHLY;COUNT=3'],
      }),
    );
    const rest = await occurrencesOf(head.id);
    expect(rest.map((event) => [event.start_date, event.end_date])).toEqual([
      ['2026-11-01 00:00:00', '2026-11-01 23:59:59'],
      ['2026-12-01 00:00:00', '2026-12-01 23:59:59'],
    ]);
    expect((await remove(rest[0].id)).status).toBe(200);
    expect((await read(head.id)).recurrence).toEqual([
      'RRULE:FREQ=MONTHLY;COUNT=3',
      'EXDATE;VALUE=DATE:20261101',
    ]);
  });

  it('re-derives the occurrences when the rule changes, keeping the changed ones whose date remains', async () => {
    const head = await rehearsals('Rehearsal D', ['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU']);
    const [oct13, oct20, oct27] = await occurrencesOf(head.id);
    await change(oct13.id, { title: 'Rehearsal D (sectional)' });
    await change(oct20.id, { title: 'Rehearsal D (with orchestra)' });

    const every2 = 'RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3;BYDAY=TU';
    const result = await change(head.id, { recurrence: [every2], scope: 'all' });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.recurrence).toEqual([every2]);
    const after = await occurrencesOf(head.id);
    const byDate = new Map(after.map((event) => [event.start_date.slice(0, 10), event]));
    // 20 October still exists: the same event, still changed on its own.
    expect(byDate.get('2026-10-20')).toMatchObject({ id: oct20.id, title: 'Rehearsal D (with orchestra)' });
    // 13 and 27 October no longer do: trashed (even the changed one).
    expect(byDate.get('2026-10-13')).toMatchObject({ id: oct13.id, status: 'trash' });
    expect(byDate.get('2026-10-27')).toMatchObject({ id: oct27.id, status: 'trash' });
    // 3 November is new.
    expect(byDate.get('2026-11-03')).toMatchObject({ status: 'publish', title: 'Rehearsal D' });
    expect(live(after)).toHaveLength(2);
  });

  it('a rule shortened, then lengthened back: the trashed event of a date the rule gives again comes back, as it was', async () => {
    const head = await rehearsals('Rehearsal K', ['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU']);
    const last = (await occurrencesOf(head.id)).at(-1)!;
    expect((await change(last.id, { title: 'Rehearsal K (concert)' })).status).toBe(200);
    expect(
      (await change(head.id, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=TU'], scope: 'all' })).status,
    ).toBe(200);
    const statusOf = async (id: number) =>
      (await occurrencesOf(head.id)).find((event) => event.id === id)?.status;
    expect(await statusOf(last.id)).toBe('trash');

    const back = await change(head.id, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU'], scope: 'all' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const after = await occurrencesOf(head.id);
    // The same event, not a new one beside it: its own title kept, its slug without the trash's suffix.
    expect(after.map((event) => event.status)).toEqual(['publish', 'publish', 'publish']);
    expect(after).toHaveLength(3);
    expect(await read(last.id)).toMatchObject({
      status: 'publish',
      title: 'Rehearsal K (concert)',
      slug: last.slug,
    });
    // A date removed on its own (an EXDATE) is not given by the rules: it stays in the trash.
    expect((await remove(after[0]!.id)).status).toBe(200);
    expect((await change(head.id, { title: 'Rehearsal K!', scope: 'all' })).status).toBe(200);
    expect(await statusOf(after[0]!.id)).toBe('trash');
  });

  it('deletes one occurrence (an EXDATE), this and the following ones, or the whole series', async () => {
    const head = await rehearsals('Rehearsal E');
    const rest = await occurrencesOf(head.id);
    const one = await remove(rest[0].id);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.status).toBe('trash');
    expect((await read(head.id)).recurrence).toEqual([WEEKLY_8, 'EXDATE;TZID=Europe/Rome:20261013T193000']);
    expect(live(await occurrencesOf(head.id))).toHaveLength(6);

    const following = await remove(rest[4].id, 'following');
    expect(following.status, JSON.stringify(following.body)).toBe(200);
    expect((await read(head.id)).recurrence[0]).toMatch(/UNTIL=20261110T182959Z;BYDAY=TU$/);
    expect(live(await occurrencesOf(head.id)).map((event) => event.start_date.slice(0, 10))).toEqual([
      '2026-10-20',
      '2026-10-27',
      '2026-11-03',
    ]);

    const all = await remove(rest[2].id, 'all');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect((await server.api(`events/${head.id}`, { auth: server.admin })).status).toBe(403);
    expect(live(await occurrencesOf(head.id))).toHaveLength(0);
  });

  it('deleting the first event alone moves the series, and its uid, to the next occurrence', async () => {
    const head = await rehearsals('Rehearsal F');
    const rest = await occurrencesOf(head.id);
    const result = await remove(head.id);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.status).toBe('trash');
    expect(result.body.uid).toBe(rest[0].uid);

    const newHead = await read(rest[0].id);
    expect(newHead.uid).toBe(head.uid);
    expect(newHead.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=7;BYDAY=TU']);
    expect(newHead.start_date).toBe('2026-10-13 19:30:00');
    const moved = await occurrencesOf(newHead.id);
    expect(live(moved).map((event) => event.id)).toEqual(rest.slice(1).map((event) => event.id));
    // The trashed first event stays with its series (restorable with it), in the trash.
    expect(moved.filter((event) => event.status === 'trash').map((event) => event.id)).toEqual([head.id]);
  });

  it('refuses an unknown scope with a 400 and changes nothing', async () => {
    const head = await rehearsals('Rehearsal G');
    const rest = await occurrencesOf(head.id);
    const update = await change(rest[0].id, { title: 'Changed', scope: 'everything' });
    expectError(update, 400, 'rest_invalid_param');
    expect(update.body.data.params.scope).toBe('scope must be this, following or all.');
    const deletion = await remove(rest[0].id, 'some');
    expectError(deletion, 400, 'rest_invalid_param');
    const after = await read(rest[0].id);
    expect(after).toMatchObject({ title: 'Rehearsal G', status: 'publish' });
    // Lines a series cannot hold are refused with what to change, and no event is made.
    const before = server.engine.store.events.size;
    const hourly = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: at('Hourly', '2026-10-06 19:30:00', '2026-10-06 20:00:00', { recurrence: ['RRULE:FREQ=HOURLY'] }),
    });
    expectError(hourly, 400, 'rest_invalid_param');
    expect(hourly.body.data.params.recurrence).toMatch(/^Line 1: /);
    expect(server.engine.store.events.size).toBe(before);
    // A new rule sent on one occurrence alone is refused too: the rule is the series'.
    const rule = await change(rest[0].id, { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] });
    expectError(rule, 400, 'rest_invalid_param');
  });

  it('refuses a series change to whoever may not change every event it touches (403, nothing changed)', async () => {
    const author = await server.userHeaders('series-author', 'author');
    const created = await server.api('events', {
      method: 'POST',
      auth: author,
      json: at('Author rehearsal', '2026-10-06 19:30:00', '2026-10-06 21:30:00', {
        timezone: 'Europe/Rome',
        status: 'publish',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const rest = await occurrencesOf(created.body.id);
    // The administrator gives the last occurrence to someone else.
    expect((await change(rest[1].id, { author: 1 })).status).toBe(200);
    const refused = await server.api(`events/${created.body.id}?scope=all`, {
      method: 'DELETE',
      auth: author,
    });
    expectError(refused, 403, 'rest_forbidden');
    const events = [await read(created.body.id), ...(await occurrencesOf(created.body.id))];
    expect(events.map((event) => event.status)).toEqual(['publish', 'publish', 'publish']);
    // Their own events of it they may change.
    const own = await server.api(`events/${created.body.id}?scope=following`, {
      method: 'DELETE',
      auth: author,
    });
    expectError(own, 403, 'rest_forbidden');
    const one = await server.api(`events/${rest[0].id}`, { method: 'DELETE', auth: author });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
  });
});

describe('series over time and on disk', () => {
  let now = START;
  let dataDir: string;
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ clock: () => new Date(now) });
    dataDir = server.dataDir;
  });
  afterAll(async () => {
    await server.close();
    const { rm } = await import('node:fs/promises');
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Stops the server and starts a new one over the same data folder (its files kept). */
  const restart = async () => {
    await server.engine.close();
    server = await startTestServer({ dataDir, clock: () => new Date(now) });
  };
  const countOf = async (headId: number) => {
    const result = await server.api(`events?post_parent=${headId}&per_page=1&start_date=2026-01-01`, {
      auth: server.admin,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body.total as number;
  };

  it('creates a daily series of two years as one durable write, not 730', async () => {
    const before = server.engine.store.snapshot().journalSeq;
    const head = await createEvent(
      server,
      at('Daily practice', '2026-09-02 07:00:00', '2026-09-02 07:30:00', {
        status: 'publish',
        recurrence: ['RRULE:FREQ=DAILY;COUNT=730'],
      }),
    );
    // One journal batch (the store's durable write) for the head and its 729 occurrences.
    expect(server.engine.store.snapshot().journalSeq - before).toBe(1);
    expect(await countOf(head.id)).toBe(729);
  });

  it('extends a series without an end as time passes, up to the horizon setting', async () => {
    const horizon = await server.api(`${server.engine.apiRoot}calendar-desk/v1/settings`, {
      method: 'PUT',
      auth: server.admin,
      json: { recurrence_horizon_months: 2 },
    });
    expect(horizon.status, JSON.stringify(horizon.body)).toBe(200);
    expect(horizon.body.recurrence_horizon_months).toBe(2);
    const head = await createEvent(
      server,
      at('Weekly meeting', '2026-09-07 18:00:00', '2026-09-07 19:00:00', {
        status: 'publish',
        recurrence: ['RRULE:FREQ=WEEKLY'],
      }),
    );
    // Mondays from 7 September to 1 November (two months from 1 September): 8, the head and 7 more.
    expect(await countOf(head.id)).toBe(7);

    // A month later (the server restarted then), the series reaches 1 December: 5 Mondays of November more.
    now = Date.parse('2026-10-01T10:00:00Z');
    await restart();
    await server.engine.seriesExtended;
    expect(await countOf(head.id)).toBe(12);

    // A longer horizon takes effect at once.
    const longer = await server.api(`${server.engine.apiRoot}calendar-desk/v1/settings`, {
      method: 'PUT',
      auth: server.admin,
      json: { recurrence_horizon_months: 3 },
    });
    expect(longer.status).toBe(200);
    expect(await countOf(head.id)).toBe(16);
  });

  it('keeps a series across a restart (the real data file)', async () => {
    const head = await createEvent(
      server,
      at('Kept series', '2026-10-06 19:30:00', '2026-10-06 21:30:00', {
        timezone: 'Europe/Rome',
        status: 'publish',
        recurrence: [WEEKLY_8, 'EXDATE;TZID=Europe/Rome:20261020T193000'],
      }),
    );
    const listed = async () => {
      const result = await server.api(`events?post_parent=${head.id}&per_page=50`, { auth: server.admin });
      return result.body.events.map((event: Record<string, unknown>) =>
        ['id', 'uid', 'start_date', 'recurrence', 'recurrence_id'].map((key) => event[key]),
      );
    };
    const before = await listed();
    await restart();
    expect(await listed()).toEqual(before);
    expect(before).toHaveLength(6);
    const reread = await server.api(`events/${head.id}`, { auth: server.admin });
    expect(reread.body.recurrence).toEqual([WEEKLY_8, 'EXDATE;TZID=Europe/Rome:20261020T193000']);
  });
});
