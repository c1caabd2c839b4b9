import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  archiveIds,
  at,
  createEvent,
  dayFromNow,
  expectEventRecord,
  expectInvalidParams,
  query,
} from './events.helpers';

type Auth = Record<string, string>;

/** Ids of `GET /events?{q}` (200 expected), each event schema-checked. */
async function listIds(server: TestServer, q = '', auth?: Auth): Promise<number[]> {
  return archiveIds(await server.api(`events${q ? `?${q}` : ''}`, { auth }));
}

/** The reference's default upper bound: now + 24 months, computed in UTC (REFERENCE §4.4). */
const twoYearsAhead = (offsetDays = 0) =>
  DateTime.utc().plus({ months: 24 }).plus({ days: offsetDays }).toFormat('yyyy-MM-dd');

/** The `Link` header's next/prev targets as query objects (the api.w.org link is left out). */
function linkTargets(header: string | null): Record<string, Record<string, string>> {
  const targets: Record<string, Record<string, string>> = {};
  for (const match of (header ?? '').matchAll(/<([^>]+)>; rel="(next|prev)"/g)) {
    targets[match[2]] = Object.fromEntries(new URL(match[1]).searchParams);
  }
  return targets;
}

function searchParams(url: string): URLSearchParams {
  return new URL(url).searchParams;
}

describe('GET /events: default window, envelope and pagination', () => {
  let server: TestServer;
  const id: Record<string, number> = {};

  beforeAll(async () => {
    server = await startTestServer();
    const make = async (key: string, start: string, end: string) => {
      id[key] = (await createEvent(server, at(key, start, end))).id;
    };
    await make('e1', `${dayFromNow(3)} 10:00:00`, `${dayFromNow(3)} 11:00:00`);
    await make('old', `${dayFromNow(-2)} 23:59:00`, `${dayFromNow(-1)} 00:30:00`);
    await make('y0', `${dayFromNow(-1)} 00:00:00`, `${dayFromNow(-1)} 01:00:00`);
    await make('e2', `${dayFromNow(1)} 10:00:00`, `${dayFromNow(1)} 11:00:00`);
    await make('e3', `${dayFromNow(1)} 10:00:00`, `${dayFromNow(1)} 10:30:00`);
    await make('e4', `${dayFromNow(2)} 08:00:00`, `${dayFromNow(2)} 09:00:00`);
    await make('lateIn', `${twoYearsAhead()} 23:00:00`, `${twoYearsAhead()} 23:59:59`);
    await make('lateOut', `${twoYearsAhead()} 23:00:00`, `${twoYearsAhead(1)} 00:00:00`);
  });
  afterAll(() => server.close());

  it('lists events starting from the start of yesterday and ending by the end of day two years ahead', async () => {
    const ids = await listIds(server);
    expect(ids).toEqual([id.y0, id.e2, id.e3, id.e4, id.e1, id.lateIn]);
  });

  it('orders by start date, equal starts in creation order', async () => {
    const ids = await listIds(server);
    // e1 was created first but starts last; e2 and e3 share a start and keep their creation order.
    expect(ids.indexOf(id.e2)).toBeLessThan(ids.indexOf(id.e3));
    expect(ids.indexOf(id.e1)).toBeGreaterThan(ids.indexOf(id.e4));
  });

  it('answers the envelope keys in the reference order, with totals in body and headers', async () => {
    const result = await server.api('events');
    expect(Object.keys(result.body)).toEqual(['events', 'rest_url', 'total', 'total_pages']);
    expect(result.body.total).toBe(6);
    expect(result.body.total_pages).toBe(1);
    expect(result.headers.get('X-WP-Total')).toBe('6');
    expect(result.headers.get('X-WP-TotalPages')).toBe('1');
    expect(result.headers.get('Link')).not.toMatch(/rel="(next|prev)"/);
    expect(result.headers.get('Link')).toContain('rel="https://api.w.org/"');
    for (const event of result.body.events) {
      expect(event).not.toHaveProperty('json_ld');
    }
  });

  it('echoes the effective query in rest_url (page, per_page, day-rounded default dates, status)', async () => {
    const result = await server.api('events');
    const url = new URL(result.body.rest_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${server.base}events/`);
    const params = url.searchParams;
    expect(params.get('page')).toBe('1');
    expect(params.get('per_page')).toBe('10');
    expect(params.get('start_date')).toBe(`${dayFromNow(-1)} 00:00:00`);
    expect(params.get('end_date')).toBe(`${twoYearsAhead()} 23:59:59`);
    expect(params.get('status')).toBe('publish');
    expect([...params.keys()].slice(0, 2)).toEqual(['page', 'per_page']);
  });

  it('paginates with next/previous links present only when those pages have items', async () => {
    const first = await server.api('events?per_page=2');
    expect(archiveIds(first)).toEqual([id.y0, id.e2]);
    expect(Object.keys(first.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
    expect(first.body.total).toBe(6);
    expect(first.body.total_pages).toBe(3);
    expect(first.headers.get('X-WP-Total')).toBe('6');
    expect(first.headers.get('X-WP-TotalPages')).toBe('3');
    const next = searchParams(first.body.next_rest_url);
    expect(next.get('page')).toBe('2');
    expect(next.get('per_page')).toBe('2');
    expect(next.get('status')).toBe('publish');
    // The Link header repeats the request itself with only `page` changed, so it keeps every filter.
    expect(linkTargets(first.headers.get('Link'))).toEqual({ next: { per_page: '2', page: '2' } });
    expect(first.headers.get('Link')).not.toContain('rel="prev"');

    // The next link is directly usable.
    const second = await server.api(first.body.next_rest_url);
    expect(archiveIds(second)).toEqual([id.e3, id.e4]);
    expect(Object.keys(second.body)).toEqual([
      'events',
      'rest_url',
      'next_rest_url',
      'previous_rest_url',
      'total',
      'total_pages',
    ]);
    // The previous page is page 1: its link drops `page`.
    expect(searchParams(second.body.previous_rest_url).has('page')).toBe(false);
    expect(searchParams(second.body.previous_rest_url).get('per_page')).toBe('2');
    expect(searchParams(second.body.rest_url).get('page')).toBe('2');
    const secondLinks = linkTargets(second.headers.get('Link'));
    expect(secondLinks.next).toMatchObject({ per_page: '2', page: '3', status: 'publish' });
    expect(secondLinks.prev).toMatchObject({ per_page: '2', status: 'publish' });
    expect(secondLinks.prev).not.toHaveProperty('page');

    const third = await server.api('events?per_page=2&page=3');
    expect(archiveIds(third)).toEqual([id.e1, id.lateIn]);
    expect(third.body).not.toHaveProperty('next_rest_url');
    expect(searchParams(third.body.previous_rest_url).get('page')).toBe('2');
    expect(third.headers.get('Link')).not.toContain('rel="next"');
  });

  it('is a 404 event-archive-page-not-found past the last page', async () => {
    const result = await server.api('events?per_page=2&page=4');
    expect(result.body).toEqual({
      code: 'event-archive-page-not-found',
      message: 'The requested event archive page does not exist',
      data: { status: 404 },
    });
    expect(result.status).toBe(404);
    expect((await server.api('events?page=9999')).status).toBe(404);
  });

  it('answers an empty first page with 200 and zero totals', async () => {
    const result = await server.api('events?search=nothing-matches-this');
    expect(result.status).toBe(200);
    expect(result.body.events).toEqual([]);
    expect(result.body.total).toBe(0);
    expect(result.body.total_pages).toBe(0);
    expect(result.headers.get('X-WP-Total')).toBe('0');
    expect(result.headers.get('X-WP-TotalPages')).toBe('0');
  });

  it.each(['abc', 'foo', '-1', '0', 'foo bar', '1.5'])('refuses per_page=%s (sample 32)', async (value) => {
    const result = await server.api(`events?${query({ per_page: value })}`);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page',
      data: { status: 400, params: { per_page: 'Invalid parameter.' }, details: [] },
    });
  });

  it.each(['foo', '-1', '0', 'foo bar'])('refuses page=%s', async (value) => {
    expectInvalidParams(await server.api(`events?${query({ page: value })}`), 'page');
  });

  it('refuses an unparseable start_date (sample 33)', async () => {
    const result = await server.api('events?start_date=not-a-date');
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): start_date',
      data: { status: 400, params: { start_date: 'Invalid parameter.' }, details: [] },
    });
  });

  it.each(['end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'])(
    'refuses an unparseable %s',
    async (name) => {
      expectInvalidParams(await server.api(`events?${query({ [name]: 'before my birthday' })}`), name);
    },
  );

  it('names every invalid parameter at once', async () => {
    expectInvalidParams(await server.api('events?page=0&per_page=x'), 'page', 'per_page');
  });
});

describe('GET /events: per_page default and maximum', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await Promise.all(
      Array.from({ length: 55 }, (_, n) =>
        createEvent(server, at(`Bulk ${n}`, `${dayFromNow(2)} 10:00:00`, `${dayFromNow(2)} 11:00:00`)),
      ),
    );
  });
  afterAll(() => server.close());

  it('returns 10 events per page by default', async () => {
    const result = await server.api('events');
    expect(archiveIds(result)).toHaveLength(10);
    expect(result.body.total).toBe(55);
    expect(result.body.total_pages).toBe(6);
  });

  it("follows the site's posts-per-page setting when per_page is absent, capped at 50", async () => {
    const store = server.engine.store;
    const settings = store.settings;
    try {
      await store.mutate((tx) => tx.setSettings({ ...settings, postsPerPage: 7 }));
      const result = await server.api('events');
      expect(archiveIds(result)).toHaveLength(7);
      expect(searchParams(result.body.rest_url).get('per_page')).toBe('7');
      await store.mutate((tx) => tx.setSettings({ ...settings, postsPerPage: 80 }));
      expect(archiveIds(await server.api('events'))).toHaveLength(50);
      expect(archiveIds(await server.api('events?per_page=3'))).toHaveLength(3);
    } finally {
      await store.mutate((tx) => tx.setSettings(settings));
    }
  });

  it('silently clamps per_page to 50', async () => {
    const result = await server.api('events?per_page=100');
    expect(archiveIds(result)).toHaveLength(50);
    expect(result.body.total_pages).toBe(2);
    expect(searchParams(result.body.rest_url).get('per_page')).toBe('50');
    const second = await server.api('events?per_page=100&page=2');
    expect(archiveIds(second)).toHaveLength(5);
  });
});

describe('GET /events: date filters (UTC site)', () => {
  let server: TestServer;
  const id: Record<string, number> = {};
  const ts = (sql: string) => Math.floor(DateTime.fromSQL(sql, { zone: 'utc' }).toSeconds());

  beforeAll(async () => {
    server = await startTestServer();
    const make = async (key: string, start: string, end: string) => {
      id[key] = (await createEvent(server, at(key, start, end))).id;
    };
    await make('A', '2018-01-01 16:00:00', '2018-01-01 16:30:00');
    await make('B', '2018-01-01 20:00:00', '2018-01-01 20:30:00');
    await make('C', '2017-12-31 22:00:00', '2018-01-01 02:00:00');
    await make('D', '2018-01-02 00:00:00', '2018-01-02 23:59:59');
    await make('E', '2018-01-02 23:00:00', '2018-01-03 00:00:00');
    await make('F', '2018-01-03 09:00:00', '2018-01-03 10:00:00');
    await make('G', `${dayFromNow(1)} 09:00:00`, `${dayFromNow(1)} 10:00:00`);
  });
  afterAll(() => server.close());

  it('leaves out past events by default', async () => {
    expect(await listIds(server)).toEqual([id.G]);
  });

  it('includes whole days by default: 15:00-18:00 on 2018-01-01 finds both events of that day', async () => {
    const q = query({ start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' });
    expect(await listIds(server, q)).toEqual([id.A, id.B]);
  });

  it.each(['true', '1', 'yes', 'on', 'TRUE'])('uses exact times with strict_dates=%s', async (strict) => {
    const q = query({
      start_date: '2018-01-01 15:00:00',
      end_date: '2018-01-01 18:00:00',
      strict_dates: strict,
    });
    expect(await listIds(server, q)).toEqual([id.A]);
  });

  it.each(['false', '0', 'no'])('stays inclusive with strict_dates=%s', async (strict) => {
    const q = query({
      start_date: '2018-01-01 15:00:00',
      end_date: '2018-01-01 18:00:00',
      strict_dates: strict,
    });
    expect(await listIds(server, q)).toEqual([id.A, id.B]);
  });

  it('refuses an empty strict_dates', async () => {
    expectInvalidParams(await server.api('events?strict_dates='), 'strict_dates');
  });

  it('means "starts on/after start_date" and "ends on/before end_date", not overlap', async () => {
    // C started on Dec 31 and runs into Jan 1: not found by a Jan 1 window.
    const q = query({ start_date: '2018-01-01', end_date: '2018-01-03' });
    expect(await listIds(server, q)).toEqual([id.A, id.B, id.D, id.E, id.F]);
  });

  it('keeps an event starting at 00:00:00 and ending at 23:59:59 of a one-day window', async () => {
    const q = query({ start_date: '2018-01-02', end_date: '2018-01-02' });
    // E ends at 00:00:00 of the next day: out.
    expect(await listIds(server, q)).toEqual([id.D]);
  });

  it('rounds an inclusive start_date down to 00:00:00 even when it names a later time', async () => {
    const q = query({ start_date: '2018-01-02 23:30:00', end_date: '2018-01-02 00:30:00' });
    expect(await listIds(server, q)).toEqual([id.D]);
  });

  it('compares the exact instants in strict mode', async () => {
    const q = query({
      start_date: '2018-01-02 00:00:01',
      end_date: '2018-01-03 00:00:00',
      strict_dates: 'true',
    });
    expect(await listIds(server, q)).toEqual([id.E]);
  });

  it('echoes the day-rounded dates in rest_url', async () => {
    const result = await server.api(
      `events?${query({ start_date: '2018-01-01 15:00', end_date: '2018-01-02' })}`,
    );
    const params = searchParams(result.body.rest_url);
    expect(params.get('start_date')).toBe('2018-01-01 00:00:00');
    expect(params.get('end_date')).toBe('2018-01-02 23:59:59');
  });

  it('keeps the default end date when only start_date is given', async () => {
    expect(await listIds(server, query({ start_date: '2018-01-03' }))).toEqual([id.F, id.G]);
  });

  it('keeps the default start date when only end_date is given', async () => {
    expect(await listIds(server, query({ end_date: '2018-01-03' }))).toEqual([]);
  });

  it('reads starts_after/starts_before as the end of the named day in inclusive mode', async () => {
    const q = query({ starts_after: '2018-01-01', starts_before: '2018-01-02' });
    // start > 2018-01-01 23:59:59 and start < 2018-01-02 23:59:59; no default window.
    expect(await listIds(server, q)).toEqual([id.D, id.E]);
  });

  it('reads ends_after/ends_before as the end of the named day in inclusive mode', async () => {
    const q = query({ ends_after: '2017-12-31', ends_before: '2018-01-01' });
    expect(await listIds(server, q)).toEqual([id.C, id.A, id.B]);
  });

  it('uses exact relative bounds in strict mode', async () => {
    const q = query({
      ends_after: '2018-01-01 00:00:00',
      ends_before: '2018-01-01 03:00:00',
      strict_dates: 'true',
    });
    expect(await listIds(server, q)).toEqual([id.C]);
    const q2 = query({
      starts_after: '2018-01-01 16:00:00',
      starts_before: '2018-01-01 20:00:00',
      strict_dates: '1',
    });
    // Strictly after 16:00 and strictly before 20:00: neither A (16:00) nor B (20:00).
    expect(await listIds(server, q2)).toEqual([]);
  });

  it('drops the default window when a relative filter is present', async () => {
    // Past and future events alike: nothing limits the start or the end any more.
    expect(await listIds(server, query({ starts_after: '2017-01-01' }))).toEqual([
      id.C,
      id.A,
      id.B,
      id.D,
      id.E,
      id.F,
      id.G,
    ]);
    const result = await server.api(`events?${query({ starts_before: '2018-01-01' })}`);
    expect(archiveIds(result)).toEqual([id.C, id.A, id.B]);
    const params = searchParams(result.body.rest_url);
    expect(params.has('start_date')).toBe(false);
    expect(params.has('end_date')).toBe(false);
    expect(params.get('starts_before')).toBe('2018-01-01 23:59:59');
  });

  it('keeps an explicit start_date next to relative filters', async () => {
    const q = query({ start_date: '2018-01-01', starts_before: '2018-01-01' });
    expect(await listIds(server, q)).toEqual([id.A, id.B]);
    const q2 = query({ end_date: '2018-01-01', starts_after: '2017-01-01' });
    expect(await listIds(server, q2)).toEqual([id.C, id.A, id.B]);
  });

  it('accepts Unix timestamps, strict and inclusive', async () => {
    const strict = query({
      start_date: ts('2018-01-01 18:00:00'),
      end_date: ts('2018-01-01 21:00:00'),
      strict_dates: 'true',
    });
    expect(await listIds(server, strict)).toEqual([id.B]);
    const inclusive = query({ start_date: ts('2018-01-01 18:00:00'), end_date: ts('2018-01-01 21:00:00') });
    expect(await listIds(server, inclusive)).toEqual([id.A, id.B]);
    expect(
      await listIds(server, query({ starts_after: ts('2018-01-03 09:00:00'), strict_dates: 'true' })),
    ).toEqual([id.G]);
  });

  it('accepts relative English dates', async () => {
    expect(await listIds(server, query({ start_date: 'today', end_date: '+3 days' }))).toEqual([id.G]);
  });
});

describe('GET /events: a site in America/New_York', () => {
  const zone = 'America/New_York';
  let server: TestServer;
  const id: Record<string, number> = {};
  // REFERENCE §4.4: "yesterday 23:59" computed in UTC, rendered in the site zone, rounded to its day.
  const defaultStartDay = () =>
    DateTime.utc()
      .minus({ days: 1 })
      .set({ hour: 23, minute: 59, second: 0 })
      .setZone(zone)
      .toFormat('yyyy-MM-dd');

  beforeAll(async () => {
    server = await startTestServer({ timezone: zone });
    const make = async (key: string, body: Record<string, unknown>) => {
      id[key] = (await createEvent(server, body)).id;
    };
    // X is in the site zone: 16:00 New York = 21:00 UTC.
    await make('X', at('X', '2018-01-01 16:00:00', '2018-01-01 16:30:00'));
    // Y is in Berlin: 01:00 on Jan 2 there is 19:00 on Jan 1 in New York.
    await make('Y', at('Y', '2018-01-02 01:00:00', '2018-01-02 02:00:00', { timezone: 'Europe/Berlin' }));
    const first = DateTime.fromISO(defaultStartDay(), { zone });
    await make(
      'edgeIn',
      at(
        'edgeIn',
        first.toFormat('yyyy-MM-dd HH:mm:ss'),
        first.plus({ hours: 1 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      ),
    );
    await make(
      'edgeOut',
      at(
        'edgeOut',
        first.minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss'),
        first.plus({ hours: 1 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      ),
    );
  });
  afterAll(() => server.close());

  it('stores events without a time zone in the site zone', async () => {
    const x = (await server.api(`events/${id.X}`)).body;
    expect(x.timezone).toBe(zone);
    expect(x.timezone_abbr).toBe('EST');
    expect(x.utc_start_date).toBe('2018-01-01 21:00:00');
    const y = (await server.api(`events/${id.Y}`)).body;
    expect(y.timezone).toBe('Europe/Berlin');
    expect(y.timezone_abbr).toBe('CET');
    expect(y.utc_start_date).toBe('2018-01-02 00:00:00');
  });

  it('starts the default window at the site-local day of UTC "yesterday 23:59"', async () => {
    const result = await server.api('events');
    expect(archiveIds(result)).toEqual([id.edgeIn]);
    const params = searchParams(result.body.rest_url);
    expect(params.get('start_date')).toBe(`${defaultStartDay()} 00:00:00`);
    // The upper bound is computed in UTC, not localized.
    expect(params.get('end_date')).toBe(`${twoYearsAhead()} 23:59:59`);
  });

  it('compares each event by its own wall clock in inclusive mode', async () => {
    expect(await listIds(server, query({ start_date: '2018-01-02', end_date: '2018-01-02' }))).toEqual([
      id.Y,
    ]);
    expect(await listIds(server, query({ start_date: '2018-01-01', end_date: '2018-01-01' }))).toEqual([
      id.X,
    ]);
  });

  it('reads strict dates as UTC and converts them to site time', async () => {
    // 20:00-23:00 UTC = 15:00-18:00 New York.
    const q = query({
      start_date: '2018-01-01 20:00:00',
      end_date: '2018-01-01 23:00:00',
      strict_dates: 'true',
    });
    const result = await server.api(`events?${q}`);
    expect(archiveIds(result)).toEqual([id.X]);
    expect(searchParams(result.body.rest_url).get('start_date')).toBe('2018-01-01 15:00:00');
    // 21:30 UTC = 16:30 New York: X (16:00) now starts too early.
    const q2 = query({
      start_date: '2018-01-01 21:30:00',
      end_date: '2018-01-03 00:00:00',
      strict_dates: 'true',
    });
    expect(await listIds(server, q2)).toEqual([id.Y]);
  });

  it('honours an explicit offset in a strict date', async () => {
    const q = query({
      start_date: '2018-01-01T15:00:00-05:00',
      end_date: '2018-01-01T18:00:00-05:00',
      strict_dates: 'true',
    });
    expect(await listIds(server, q)).toEqual([id.X]);
  });
});

describe('GET /events: filters', () => {
  let server: TestServer;
  const id: Record<string, number> = {};
  const term: Record<string, number> = {};
  const post: Record<string, number> = {};

  const day = (n: number, time = '10:00:00') => `${dayFromNow(n)} ${time}`;
  const make = async (key: string, n: number, extra: Record<string, unknown> = {}, auth?: Auth) => {
    const event = await createEvent(server, at(key, day(n), day(n, '11:00:00'), extra), auth);
    id[key] = event.id;
    return event;
  };

  beforeAll(async () => {
    server = await startTestServer();

    const venue = async (key: string, body: Record<string, unknown>) => {
      const result = await server.api('venues', { method: 'POST', auth: server.admin, json: body });
      expect(result.status).toBe(201);
      post[key] = result.body.id;
    };
    await venue('v1', { venue: 'Plain Hall' });
    await venue('v2', { venue: 'Side Room' });
    await venue('rome', { venue: 'Rome Arena', geo_lat: 41.9028, geo_lng: 12.4964 });
    await venue('milan', { venue: 'Milan Forum', geo_lat: 45.4642, geo_lng: 9.19 });
    const organizer = async (key: string, name: string) => {
      const result = await server.api('organizers', {
        method: 'POST',
        auth: server.admin,
        json: { organizer: name },
      });
      expect(result.status).toBe(201);
      post[key] = result.body.id;
    };
    await organizer('o1', 'First Org');
    await organizer('o2', 'Second Org');

    const m1 = await make('m1', 1, {
      categories: ['Music'],
      tags: ['jazz'],
      venue: post.v1,
      organizer: [post.o1],
    });
    term.music = m1.categories[0].id;
    term.jazz = m1.tags[0].id;
    await make('m2', 1, { categories: 'music', venue: post.v2, organizer: [post.o1, post.o2] });
    const f1 = await make('f1', 2, { categories: ['Film'], tags: ['jazz'], featured: true });
    term.film = f1.categories[0].id;
    const f2 = await make('f2', 2, { categories: [term.film], tags: 'outdoor', ticketed: true });
    term.outdoor = f2.tags[0].id;
    await make('plain', 3, { venue: post.rome, featured: false });
    await make('north', 4, { venue: post.milan });
  });
  afterAll(() => server.close());

  describe('categories and tags', () => {
    it('filters by category slug or id, OR within the list', async () => {
      expect(await listIds(server, 'categories=music')).toEqual([id.m1, id.m2]);
      expect(await listIds(server, `categories=${term.film}`)).toEqual([id.f1, id.f2]);
      expect(await listIds(server, `categories=music,${term.film}`)).toEqual([id.m1, id.m2, id.f1, id.f2]);
      expect(await listIds(server, `categories[]=film&categories[]=${term.music}`)).toEqual([
        id.m1,
        id.m2,
        id.f1,
        id.f2,
      ]);
    });

    it('filters by tag, AND between categories and tags', async () => {
      expect(await listIds(server, 'tags=jazz')).toEqual([id.m1, id.f1]);
      expect(await listIds(server, `tags=jazz,${term.outdoor}`)).toEqual([id.m1, id.f1, id.f2]);
      expect(await listIds(server, 'categories=film&tags=jazz')).toEqual([id.f1]);
      expect(await listIds(server, 'categories=music&tags=outdoor')).toEqual([]);
    });

    it('refuses unknown terms and terms of the other taxonomy', async () => {
      expectInvalidParams(await server.api('events?categories=cat1'), 'categories');
      expectInvalidParams(await server.api('events?categories=music,cat1'), 'categories');
      expectInvalidParams(await server.api('events?categories=99999'), 'categories');
      expectInvalidParams(await server.api('events?tags=nope'), 'tags');
      expectInvalidParams(await server.api(`events?categories=${term.jazz}`), 'categories');
      expectInvalidParams(await server.api('events?tags=music'), 'tags');
    });
  });

  describe('venue and organizer', () => {
    it('filters by venue ids (OR)', async () => {
      expect(await listIds(server, `venue=${post.v1}`)).toEqual([id.m1]);
      expect(await listIds(server, `venue=${post.v1},${post.v2}`)).toEqual([id.m1, id.m2]);
      expect(await listIds(server, `venue[]=${post.v2}&venue[]=${post.rome}`)).toEqual([id.m2, id.plain]);
    });

    it('filters by organizer ids (OR), an event with several matching organizers once', async () => {
      expect(await listIds(server, `organizer=${post.o1}`)).toEqual([id.m1, id.m2]);
      expect(await listIds(server, `organizer=${post.o2}`)).toEqual([id.m2]);
      expect(await listIds(server, `organizer=${post.o1},${post.o2}`)).toEqual([id.m1, id.m2]);
    });

    it('ANDs venue, organizer, terms and featured', async () => {
      expect(await listIds(server, `venue=${post.v2}&organizer=${post.o1}`)).toEqual([id.m2]);
      expect(await listIds(server, `venue=${post.v1}&organizer=${post.o2}`)).toEqual([]);
      expect(await listIds(server, `venue=${post.v1}&categories=music&organizer=${post.o1}`)).toEqual([
        id.m1,
      ]);
    });

    it('refuses non-numeric and unknown ids, and ids of the other kind', async () => {
      expectInvalidParams(await server.api('events?venue=foo'), 'venue');
      expectInvalidParams(await server.api('events?venue=99999'), 'venue');
      expectInvalidParams(await server.api(`events?venue=${post.o1}`), 'venue');
      expectInvalidParams(await server.api(`events?venue=${id.m1}`), 'venue');
      expectInvalidParams(await server.api('events?organizer=foo'), 'organizer');
      expectInvalidParams(await server.api('events?organizer=99999'), 'organizer');
      expectInvalidParams(await server.api(`events?organizer=${post.v1}`), 'organizer');
    });
  });

  describe('featured and ticketed', () => {
    it('filters featured=true and featured=false', async () => {
      expect(await listIds(server, 'featured=true')).toEqual([id.f1]);
      expect(await listIds(server, 'featured=1')).toEqual([id.f1]);
      expect(await listIds(server, 'featured=false')).toEqual([id.m1, id.m2, id.f2, id.plain, id.north]);
      expect(await listIds(server, 'featured=0&ticketed=1')).toEqual([id.f2]);
    });

    it('filters ticketed=true and ticketed=false', async () => {
      expect(await listIds(server, 'ticketed=true')).toEqual([id.f2]);
      expect(await listIds(server, 'ticketed=false')).toEqual([id.m1, id.m2, id.f1, id.plain, id.north]);
    });

    it('refuses non-boolean values', async () => {
      const result = await server.api('events?featured=maybe');
      expectInvalidParams(result, 'featured');
      expect(result.body.data.params.featured).toBe('featured is not of type boolean.');
      expectInvalidParams(await server.api('events?ticketed=perhaps'), 'ticketed');
    });
  });

  describe('geolocation', () => {
    it('keeps events whose venue has coordinates with geoloc=true', async () => {
      expect(await listIds(server, 'geoloc=true')).toEqual([id.plain, id.north]);
      expect(await listIds(server, 'geoloc=false')).toHaveLength(6);
    });

    it('keeps events within 25 km of geoloc_lat/geoloc_lng by default', async () => {
      expect(await listIds(server, 'geoloc_lat=41.89&geoloc_lng=12.49')).toEqual([id.plain]);
      expect(await listIds(server, 'geoloc=1&geoloc_lat=45.47&geoloc_lng=9.2')).toEqual([id.north]);
      expect(await listIds(server, 'geoloc_lat=0&geoloc_lng=0')).toEqual([]);
    });

    it('widens the circle with geoloc_radius', async () => {
      // Rome-Milan is about 480 km.
      expect(await listIds(server, 'geoloc_lat=41.89&geoloc_lng=12.49&geoloc_radius=400')).toEqual([
        id.plain,
      ]);
      expect(await listIds(server, 'geoloc_lat=41.89&geoloc_lng=12.49&geoloc_radius=600')).toEqual([
        id.plain,
        id.north,
      ]);
    });

    it('needs both geoloc_lat and geoloc_lng', async () => {
      expectInvalidParams(await server.api('events?geoloc_lat=41.9'), 'geoloc_lat');
      expectInvalidParams(await server.api('events?geoloc=true&geoloc_lng=12.5'), 'geoloc_lng');
    });
  });

  describe('post_parent', () => {
    it('filters by parent event and refuses ids that are not events', async () => {
      expect(await listIds(server, `post_parent=${id.m1}`)).toEqual([]);
      expectInvalidParams(await server.api(`events?post_parent=${post.v1}`), 'post_parent');
      expectInvalidParams(await server.api('events?post_parent=99999'), 'post_parent');
      expectInvalidParams(await server.api('events?post_parent=foo'), 'post_parent');
    });
  });
});

describe('GET /events: search', () => {
  let server: TestServer;
  const id: Record<string, number> = {};
  beforeAll(async () => {
    server = await startTestServer();
    const make = async (key: string, extra: Record<string, unknown>, title = key) => {
      id[key] = (
        await createEvent(server, at(title, `${dayFromNow(1)} 10:00:00`, `${dayFromNow(1)} 11:00:00`, extra))
      ).id;
    };
    await make('t1', {}, 'Zebra gala');
    await make('t2', {}, 'zebra Yak fest');
    await make('t3', {}, 'Yak night');
    await make('d1', { description: '<p>Bring a ZEBRA costume</p>' }, 'Costume party');
    await make('x1', { excerpt: 'The yak returns' }, 'Return show');
    await make('none', { description: 'nothing to see' }, 'Quiet evening');
  });
  afterAll(() => server.close());

  it('matches one word in the title, excerpt or description, case-insensitively', async () => {
    expect(await listIds(server, 'search=zebra')).toEqual([id.t1, id.t2, id.d1]);
    expect(await listIds(server, 'search=YAK')).toEqual([id.t2, id.t3, id.x1]);
  });

  it('needs every word, in any order', async () => {
    expect(await listIds(server, query({ search: 'zebra yak' }))).toEqual([id.t2]);
    expect(await listIds(server, query({ search: 'yak   ZEBRA' }))).toEqual([id.t2]);
    expect(await listIds(server, query({ search: 'zebra gala yak' }))).toEqual([]);
  });

  it('echoes the search in rest_url and refuses an empty one', async () => {
    const result = await server.api('events?search=zebra');
    expect(searchParams(result.body.rest_url).get('search')).toBe('zebra');
    expectInvalidParams(await server.api('events?search='), 'search');
  });
});

describe('GET /events: status, visibility and hidden events', () => {
  let server: TestServer;
  let editor: Auth;
  let author: Auth;
  let contributor: Auth;
  let subscriber: Auth;
  const id: Record<string, number> = {};
  const day = `${dayFromNow(2)}`;

  beforeAll(async () => {
    server = await startTestServer();
    editor = await server.userHeaders('eddie', 'editor');
    author = await server.userHeaders('arthur', 'author');
    contributor = await server.userHeaders('connie', 'contributor');
    subscriber = await server.userHeaders('sub', 'subscriber');
    const make = async (key: string, extra: Record<string, unknown> = {}, auth?: Auth, hour = 10) => {
      const event = await createEvent(
        server,
        at(key, `${day} ${hour}:00:00`, `${day} ${hour}:30:00`, extra),
        auth ?? server.admin,
      );
      id[key] = event.id;
      return event;
    };
    await make('pub', {}, undefined, 10);
    await make('draft', { status: 'draft' }, undefined, 11);
    await make('pending', { status: 'publish' }, contributor, 12);
    await make('private', { status: 'private' }, undefined, 13);
    await make('future', { status: 'future' }, undefined, 14);
    await make('trashed', {}, undefined, 15);
    await make('hidden', { hide_from_listings: true }, undefined, 16);
    const trashed = await server.api(`events/${id.trashed}`, { method: 'DELETE', auth: server.admin });
    expect(trashed.status).toBe(200);
  });
  afterAll(() => server.close());

  it('shows only published events to anonymous callers and subscribers', async () => {
    expect(await listIds(server)).toEqual([id.pub]);
    expect(await listIds(server, '', subscriber)).toEqual([id.pub]);
    expect(await listIds(server, 'status=publish')).toEqual([id.pub]);
  });

  it.each(['draft', 'publish, draft', 'publish,draft', 'any'])(
    'refuses status=%s to callers who cannot edit events',
    async (status) => {
      expectInvalidParams(await server.api(`events?${query({ status })}`), 'status');
      expectInvalidParams(await server.api(`events?${query({ status })}`, { auth: subscriber }), 'status');
    },
  );

  it('shows every status but trash to users who can edit events, by default', async () => {
    const expected = [id.pub, id.draft, id.pending, id.private, id.future];
    expect(await listIds(server, '', editor)).toEqual(expected);
    expect(await listIds(server, '', server.admin)).toEqual(expected);
    // No per-author restriction: a contributor sees others' drafts too.
    expect(await listIds(server, '', contributor)).toEqual(expected);
    expect(await listIds(server, '', author)).toEqual(expected);
    const result = await server.api('events', { auth: editor });
    expect(searchParams(result.body.rest_url).get('status')).toBeTruthy();
  });

  it('restricts editors to the statuses they name', async () => {
    expect(await listIds(server, 'status=draft', editor)).toEqual([id.draft]);
    expect(await listIds(server, query({ status: 'draft, pending' }), editor)).toEqual([
      id.draft,
      id.pending,
    ]);
    expect(await listIds(server, 'status[]=private&status[]=publish', editor)).toEqual([id.pub, id.private]);
    expect(await listIds(server, 'status=trash', editor)).toEqual([id.trashed]);
  });

  it.each(['foo', 'foo, bar', 'foo, bar, publish'])(
    'refuses unknown statuses (%s) to editors',
    async (status) => {
      expectInvalidParams(await server.api(`events?${query({ status })}`, { auth: editor }), 'status');
    },
  );

  it('leaves events hidden from listings out, even for administrators', async () => {
    expect(await listIds(server, '', server.admin)).not.toContain(id.hidden);
    const single = await server.api(`events/${id.hidden}`);
    expect(single.status).toBe(200);
    expect(single.body.hide_from_listings).toBe(true);
  });

  it('lists hidden events with show_hidden=true for users who can edit events', async () => {
    expect(await listIds(server, 'show_hidden=true', server.admin)).toContain(id.hidden);
    expect(await listIds(server, 'show_hidden=1&status=publish', contributor)).toEqual([id.pub, id.hidden]);
    expect(await listIds(server, 'show_hidden=false')).toEqual([id.pub]);
  });

  it('refuses show_hidden=true to anonymous callers and subscribers', async () => {
    expectInvalidParams(await server.api('events?show_hidden=true'), 'show_hidden');
    expectInvalidParams(await server.api('events?show_hidden=true', { auth: subscriber }), 'show_hidden');
  });
});

describe('GET /events: include', () => {
  let server: TestServer;
  const id: Record<string, number> = {};
  beforeAll(async () => {
    server = await startTestServer();
    const make = async (key: string, n: number, date?: string) => {
      const body = at(key, `${dayFromNow(n)} 10:00:00`, `${dayFromNow(n)} 11:00:00`, date ? { date } : {});
      id[key] = (await createEvent(server, body)).id;
    };
    // Post dates run opposite to start dates.
    await make('soon', 1, '2020-03-01 10:00:00');
    await make('later', 5, '2020-01-01 10:00:00');
    await make('middle', 3, '2020-02-01 10:00:00');
    await make('other', 2);
    id.past = (await createEvent(server, at('past', '2018-01-01 10:00:00', '2018-01-01 11:00:00'))).id;
  });
  afterAll(() => server.close());

  it('keeps only the listed ids, ordered by post date', async () => {
    expect(await listIds(server, `include=${id.soon},${id.later},${id.middle}`)).toEqual([
      id.later,
      id.middle,
      id.soon,
    ]);
    expect(await listIds(server, `include[]=${id.other}&include[]=${id.soon}`)).toEqual([id.soon, id.other]);
  });

  it('ignores explicit start_date/end_date but still applies the default window', async () => {
    expect(
      await listIds(
        server,
        query({ include: `${id.soon},${id.past}`, start_date: '2030-01-01', end_date: '2030-01-02' }),
      ),
    ).toEqual([id.soon]);
    expect(await listIds(server, `include=${id.past}`)).toEqual([]);
  });

  it('refuses lists that are not positive integers', async () => {
    expectInvalidParams(await server.api('events?include=foo-bar,23,89'), 'include');
    expectInvalidParams(await server.api('events?include=0'), 'include');
  });

  it('simply matches nothing for ids that are not events', async () => {
    expect(await listIds(server, 'include=99999')).toEqual([]);
  });
});

describe('GET /events: languages', () => {
  let server: TestServer;
  const id: Record<string, number> = {};
  beforeAll(async () => {
    server = await startTestServer();
    const day = dayFromNow(1);
    id.en = (await createEvent(server, at('English', `${day} 10:00:00`, `${day} 11:00:00`))).id;
    id.it = (
      await createEvent(server, at('Italiano', `${day} 11:00:00`, `${day} 12:00:00`, { ml_language: 'it' }))
    ).id;
    const viaRoot = await server.api(`${server.engine.origin}/pl/wp-json/cal/events/v1/events`, {
      method: 'POST',
      auth: server.admin,
      json: at('Polski', `${day} 12:00:00`, `${day} 13:00:00`),
    });
    expect(viaRoot.status).toBe(201);
    expectEventRecord(viaRoot.body);
    id.pl = viaRoot.body.id;
  });
  afterAll(() => server.close());

  it('filters by ml_language', async () => {
    expect(await listIds(server)).toEqual([id.en, id.it, id.pl]);
    expect(await listIds(server, 'ml_language=it')).toEqual([id.it]);
    expect(await listIds(server, 'ml_language=pl')).toEqual([id.pl]);
    expect(await listIds(server, 'ml_language=en')).toEqual([id.en]);
    expect(await listIds(server, 'ml_language=de')).toEqual([]);
  });

  it('refuses an unknown language', async () => {
    expectInvalidParams(await server.api('events?ml_language=xx'), 'ml_language');
  });
});

describe('GET /events: password-protected events', () => {
  let server: TestServer;
  let protectedId: number;
  beforeAll(async () => {
    server = await startTestServer();
    const venue = await server.api('venues', { method: 'POST', auth: server.admin, json: { venue: 'Hall' } });
    const day = dayFromNow(1);
    protectedId = (
      await createEvent(
        server,
        at('Secret gig', `${day} 10:00:00`, `${day} 11:00:00`, {
          description: '<p>Members only</p>',
          excerpt: 'shh',
          cost: '10',
          website: 'https://secret.example.test',
          categories: ['Music'],
          tags: ['vip'],
          venue: venue.body.id,
          organizer: [{ organizer: 'Host' }],
          featured: true,
          post_password: 'open sesame',
        }),
      )
    ).id;
  });
  afterAll(() => server.close());

  it('blanks the protected fields in lists without the password (REFERENCE §6.4)', async () => {
    const result = await server.api('events');
    const [event] = result.body.events;
    expectEventRecord(event);
    expect(event.id).toBe(protectedId);
    expect(event.title).toBe('Secret gig');
    expect(event.slug).toBe('secret-gig');
    expect(event.start_date).toBe(`${dayFromNow(1)} 10:00:00`);
    expect(event.description).toBe('');
    expect(event.excerpt).toBe('');
    expect(event.cost).toBe('');
    expect(event.website).toBe('');
    expect(event.image).toBe(false);
    expect(event.cost_details).toEqual({
      currency_symbol: '',
      currency_position: '',
      currency_code: '',
      values: [],
    });
    for (const flag of [
      'all_day',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'ticketed',
    ] as const) {
      expect(event[flag], flag).toBeNull();
    }
    for (const list of ['categories', 'tags', 'venue', 'organizer', 'custom_fields'] as const) {
      expect(event[list], list).toEqual([]);
    }
  });

  it('shows the fields with the right password', async () => {
    const result = await server.api(`events?${query({ password: 'open sesame' })}`);
    const [event] = result.body.events;
    expectEventRecord(event);
    expect(event.description).toBe('<p>Members only</p>');
    expect(event.featured).toBe(true);
    expect(event.categories).toHaveLength(1);
    expect(event.venue.venue).toBe('Hall');
    const wrong = await server.api(`events?${query({ password: 'nope' })}`);
    expect(wrong.body.events[0].description).toBe('');
  });
});

describe('category filter and child categories', () => {
  it('includes events of child categories when filtering by a parent (WordPress include_children)', async () => {
    const server = await startTestServer();
    try {
      const create = (path: string, json: unknown) =>
        server.api(path, { method: 'POST', auth: server.admin, json });
      const parent = (await create('categories', { name: 'Music' })).body;
      const child = (await create('categories', { name: 'Jazz', parent: parent.id })).body;
      const grandchild = (await create('categories', { name: 'Bebop', parent: child.id })).body;
      const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      const event = (title: string, categories: number[]) =>
        create('events', { title, start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00`, categories });
      await event('In parent', [parent.id]);
      await event('In child', [child.id]);
      await event('In grandchild', [grandchild.id]);
      await event('Elsewhere', []);
      const titles = async (query: string) =>
        (await server.api(`events?${query}`)).body.events.map((item: { title: string }) => item.title).sort();
      expect(await titles(`categories=${parent.id}`)).toEqual(['In child', 'In grandchild', 'In parent']);
      expect(await titles('categories=jazz')).toEqual(['In child', 'In grandchild']);
      expect(await titles(`categories=${grandchild.id}`)).toEqual(['In grandchild']);
    } finally {
      await server.close();
    }
  });
});
