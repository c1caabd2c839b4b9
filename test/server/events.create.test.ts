import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { startTestServer, type TestServer } from '../helpers/server';
import { VENUE_WITH_ADDRESS_KEYS } from '../helpers/fixtures';
import { at, createEvent, expectError, expectEventRecord, expectInvalidParams } from './events.helpers';

type Auth = Record<string, string>;

const SQL = 'yyyy-MM-dd HH:mm:ss';
/** No `Authorization` header. */
const ANON: Auth = {};

/** Posts a create and returns the raw result (any status). */
const post = (server: TestServer, json: unknown, auth: Auth | undefined = server.admin) =>
  server.api('events', { method: 'POST', auth, json });

/** Possible expectations computed before and after the request (so a day change in between cannot fail it). */
async function aroundRequest<T>(compute: () => string, request: () => Promise<T>) {
  const before = compute();
  const result = await request();
  return { result, expected: [...new Set([before, compute()])] };
}

describe('POST /events: required fields, validation and permissions', () => {
  let server: TestServer;
  let subscriber: Auth;
  beforeAll(async () => {
    server = await startTestServer();
    subscriber = await server.userHeaders('sub', 'subscriber');
  });
  afterAll(() => server.close());

  it('names the missing required fields in order (sample 34)', async () => {
    const result = await post(server, {});
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title, start_date, end_date',
      data: { status: 400, params: ['title', 'start_date', 'end_date'] },
    });
    const partial = await post(server, { title: 'Only a title' });
    expect(partial.body.message).toBe('Missing parameter(s): start_date, end_date');
    expect(partial.body.data.params).toEqual(['start_date', 'end_date']);
  });

  it('validates before it authorizes: anonymous and subscribers get 400 for bad input', async () => {
    expect((await post(server, {}, ANON)).status).toBe(400);
    expectInvalidParams(await post(server, at('', '2030-01-01', '2030-01-02'), ANON), 'title');
    expectInvalidParams(await post(server, at('x', 'garbage', '2030-01-02'), subscriber), 'start_date');
  });

  it('refuses anonymous callers with 401 and subscribers with 403', async () => {
    const anonymous = await post(server, at('Nope', '2030-01-01 10:00', '2030-01-01 11:00'), ANON);
    expect(anonymous.body).toEqual({
      code: 'rest_forbidden',
      message: 'Sorry, you are not allowed to do that.',
      data: { status: 401 },
    });
    expect(anonymous.status).toBe(401);
    expectError(
      await post(server, at('Nope', '2030-01-01 10:00', '2030-01-01 11:00'), subscriber),
      403,
      'rest_forbidden',
    );
    const list = await server.api('events?start_date=2029-01-01&end_date=2031-01-01', { auth: server.admin });
    expect(list.body.events).toEqual([]);
  });

  it('refuses an empty title with rest_invalid_param', async () => {
    const result = await post(server, at('', '2030-01-01 10:00', '2030-01-01 11:00'));
    expect(result.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): title',
      data: { status: 400, params: { title: 'Invalid parameter.' }, details: [] },
    });
  });

  it('refuses unparseable dates naming the field', async () => {
    expectInvalidParams(await post(server, at('x', 'before my birthday', '2030-01-01')), 'start_date');
    expectInvalidParams(
      await post(server, at('x', '2030-01-01', 'not a strtotime parsable string')),
      'end_date',
    );
    expectInvalidParams(await post(server, at('x', 'nope', 'nope either')), 'start_date', 'end_date');
    expectInvalidParams(await post(server, at('x', '', '2030-01-01')), 'start_date');
  });

  it('refuses an end before the start (we do not silently correct it)', async () => {
    const result = await post(server, at('Backwards', '2030-01-02 10:00:00', '2030-01-01 10:00:00'));
    expectInvalidParams(result, 'end_date');
    expectInvalidParams(
      await post(server, at('Backwards all day', '2030-01-02', '2030-01-01', { all_day: true })),
      'end_date',
    );
    expect(
      (await server.api('events?search=Backwards&start_date=2029-01-01', { auth: server.admin })).body.total,
    ).toBe(0);
  });

  it.each([
    ['author', 23],
    ['author', ''],
    ['date', 'foo'],
    ['date_utc', 'foo'],
    ['website', 'foo'],
    ['timezone', 'Mars/Olympus'],
    ['status', 'kinda_thinking_about_it'],
    ['description', ''],
    ['excerpt', ''],
    ['slug', ''],
    ['all_day', 'maybe'],
    ['featured', 'sure'],
    ['image', 23],
    ['image', 'foo bar'],
  ])('refuses %s=%j', async (name, value) => {
    expectInvalidParams(
      await post(server, at('x', '2030-01-01 10:00', '2030-01-01 11:00', { [name]: value })),
      name,
    );
  });

  it('refuses a JSON number as the title', async () => {
    expectInvalidParams(
      await post(server, at('x', '2030-01-01 10:00', '2030-01-01 11:00', { title: 12 })),
      'title',
    );
  });
});

describe('POST /events: the created record', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 201 with the record of sample 40, key by key', async () => {
    const result = await post(server, {
      title: 'Sample created event',
      description: '<p>Created by samples.sh</p>',
      start_date: '2027-03-01 18:00:00',
      end_date: '2027-03-01 21:00:00',
      timezone: 'Europe/Berlin',
      cost: '15',
      venue: { venue: 'Sample Venue', address: '1 Sample Road', city: 'Lisbon', country: 'Portugal' },
      organizer: [{ organizer: 'Sample Organizer', email: 'sample@example.test' }],
      categories: ['Music'],
      tags: ['jazz', 'evening'],
    });
    expect(result.status).toBe(201);
    const event = expectEventRecord(result.body);
    const site = server.engine.origin;
    const host = new URL(site).hostname;
    expect(Object.keys(event)).toEqual([
      'id',
      'global_id',
      'global_id_lineage',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'rest_url',
      'title',
      'description',
      'excerpt',
      'slug',
      'image',
      'all_day',
      'start_date',
      'start_date_details',
      'end_date',
      'end_date_details',
      'utc_start_date',
      'utc_start_date_details',
      'utc_end_date',
      'utc_end_date_details',
      'timezone',
      'timezone_abbr',
      'cost',
      'cost_details',
      'website',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'categories',
      'tags',
      'venue',
      'organizer',
      'custom_fields',
      // Ours (CONTRACT §2).
      'language',
      'uid',
      // Ours (issue 13): the series' rule and the event's place in it.
      'recurrence',
      'recurrence_id',
      'ticketed',
    ]);
    const id = event.id;
    expect(event.global_id).toBe(`${host}?id=${id}`);
    expect(event.global_id_lineage).toEqual([`${host}?id=${id}`]);
    expect(event.author).toBe('1');
    expect(event.status).toBe('publish');
    expect(event.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(event.date_utc).toBe(event.date);
    expect(event.modified_utc).toBe(event.date_utc);
    expect(event.url).toBe(`${site}/event/sample-created-event/`);
    expect(event.rest_url).toBe(`${server.base}events/${id}`);
    expect(event.title).toBe('Sample created event');
    // Returned as stored: no extra <p> wrapping (CONTRACT §2).
    expect(event.description).toBe('<p>Created by samples.sh</p>');
    expect(event.excerpt).toBe('');
    expect(event.slug).toBe('sample-created-event');
    expect(event.image).toBe(false);
    expect(event.all_day).toBe(false);
    expect(event.start_date).toBe('2027-03-01 18:00:00');
    expect(event.start_date_details).toEqual({
      year: '2027',
      month: '03',
      day: '01',
      hour: '18',
      minutes: '00',
      seconds: '00',
    });
    expect(event.end_date).toBe('2027-03-01 21:00:00');
    expect(event.end_date_details).toEqual({
      year: '2027',
      month: '03',
      day: '01',
      hour: '21',
      minutes: '00',
      seconds: '00',
    });
    expect(event.utc_start_date).toBe('2027-03-01 17:00:00');
    expect(event.utc_start_date_details.hour).toBe('17');
    expect(event.utc_end_date).toBe('2027-03-01 20:00:00');
    expect(event.utc_end_date_details.hour).toBe('20');
    expect(event.timezone).toBe('Europe/Berlin');
    expect(event.timezone_abbr).toBe('CET');
    expect(event.cost).toBe('$15');
    expect(event.cost_details).toEqual({
      currency_symbol: '',
      currency_code: '',
      currency_position: '',
      values: ['15'],
    });
    expect(event.website).toBe(event.url);
    // CONTRACT §3: true by default (the reference writes false).
    expect(event.show_map).toBe(true);
    expect(event.show_map_link).toBe(true);
    expect(event.hide_from_listings).toBe(false);
    expect(event.sticky).toBe(false);
    expect(event.featured).toBe(false);
    expect(event.custom_fields).toEqual([]);
    expect(event.language).toBe('en');
    expect(event.ticketed).toBe(false);
    expect(event).not.toHaveProperty('json_ld');

    const [music] = event.categories;
    expect(event.categories).toHaveLength(1);
    expect(Object.keys(music)).toEqual([
      'name',
      'slug',
      'term_group',
      'term_taxonomy_id',
      'taxonomy',
      'description',
      'parent',
      'count',
      'filter',
      'id',
      'urls',
      'language',
      'uid',
    ]);
    expect(music).toMatchObject({
      name: 'Music',
      slug: 'music',
      term_group: 0,
      taxonomy: 'tribe_events_cat',
      description: '',
      parent: 0,
      count: 1,
      filter: 'raw',
      urls: {
        self: `${server.base}categories/${music.id}`,
        collection: `${server.base}categories`,
      },
    });
    expect(music.urls).not.toHaveProperty('up');
    // Tags in name order.
    expect(event.tags.map((tag: { name: string }) => tag.name)).toEqual(['evening', 'jazz']);
    expect(event.tags[0].taxonomy).toBe('post_tag');
    expect(event.tags[0].urls.self).toBe(`${server.base}tags/${event.tags[0].id}`);

    const venue = event.venue as Record<string, unknown>;
    expect(Object.keys(venue)).toEqual(VENUE_WITH_ADDRESS_KEYS);
    expect(venue).toMatchObject({
      author: '1',
      status: 'publish',
      url: `${site}/venue/sample-venue/`,
      venue: 'Sample Venue',
      slug: 'sample-venue',
      address: '1 Sample Road',
      city: 'Lisbon',
      country: 'Portugal',
      show_map: true,
      show_map_link: true,
      global_id: `${host}?id=${venue.id}`,
    });
    expect(event.organizer).toHaveLength(1);
    expect(Object.keys(event.organizer[0])).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'organizer',
      'slug',
      'email',
      'global_id',
      'global_id_lineage',
      'language',
      'uid',
    ]);
    expect(event.organizer[0]).toMatchObject({
      organizer: 'Sample Organizer',
      email: 'sample@example.test',
      url: `${site}/organizer/sample-organizer/`,
    });

    // The record is stored as answered, and an ETag and Location come with it.
    expect(result.headers.get('ETag')).toBeTruthy();
    expect(result.headers.get('Location')).toBe(`${server.base}events/${id}`);
    const read = await server.api(`events/${id}`);
    const { json_ld: jsonLd, ...readBack } = read.body;
    expect(jsonLd).toBeTruthy();
    // A single read embeds the venue and organizers with their own json_ld (REFERENCE §3.5).
    const { json_ld: venueLd, ...venueBack } = readBack.venue;
    expect(venueLd).toMatchObject({ '@type': 'Place', name: 'Sample Venue' });
    const { json_ld: organizerLd, ...organizerBack } = readBack.organizer[0];
    expect(organizerLd).toMatchObject({ '@type': 'Person', name: 'Sample Organizer' });
    expect({ ...readBack, venue: venueBack, organizer: [organizerBack] }).toEqual(event);
  });

  it('accepts a form-encoded body', async () => {
    const result = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'title=Form+event&start_date=2030-01-02+10%3A00&end_date=2030-01-02+12%3A00&featured=1&categories[]=Form',
    });
    expect(result.status).toBe(201);
    const event = expectEventRecord(result.body);
    expect(event.title).toBe('Form event');
    expect(event.start_date).toBe('2030-01-02 10:00:00');
    expect(event.featured).toBe(true);
    expect(event.categories.map((term) => term.name)).toEqual(['Form']);
  });

  it('makes slugs unique and honours a requested slug', async () => {
    const first = await createEvent(server, at('Twin Show', '2030-01-01 10:00', '2030-01-01 11:00'));
    const second = await createEvent(server, at('Twin Show', '2030-01-01 10:00', '2030-01-01 11:00'));
    const third = await createEvent(server, at('Twin Show', '2030-01-01 10:00', '2030-01-01 11:00'));
    expect([first.slug, second.slug, third.slug]).toEqual(['twin-show', 'twin-show-2', 'twin-show-3']);
    const custom = await createEvent(
      server,
      at('Whatever', '2030-01-01 10:00', '2030-01-01 11:00', { slug: 'my-own slug' }),
    );
    expect(custom.slug).toBe('my-own-slug');
    expect(custom.url).toBe(`${server.engine.origin}/event/my-own-slug/`);
    const clash = await createEvent(
      server,
      at('Other', '2030-01-01 10:00', '2030-01-01 11:00', { slug: 'twin-show' }),
    );
    expect(clash.slug).toBe('twin-show-4');
  });

  it('stores presentation flags as sent, with string booleans', async () => {
    const event = await createEvent(
      server,
      at('Flags', '2030-01-01 10:00', '2030-01-01 11:00', {
        show_map: false,
        show_map_link: 'false',
        hide_from_listings: 'true',
        sticky: 1,
        featured: '1',
        ticketed: true,
      }),
    );
    expect(event).toMatchObject({
      show_map: false,
      show_map_link: false,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      ticketed: true,
    });
    const notHidden = await createEvent(
      server,
      at('Not hidden', '2030-01-01 10:00', '2030-01-01 11:00', { hide_from_listings: 'false' }),
    );
    expect(notHidden.hide_from_listings).toBe(false);
  });

  it('uses the website when given, else the permalink', async () => {
    const withSite = await createEvent(
      server,
      at('Site', '2030-01-01 10:00', '2030-01-01 11:00', { website: 'https://tec.example.test/page?a=1' }),
    );
    expect(withSite.website).toBe('https://tec.example.test/page?a=1');
    const empty = await createEvent(
      server,
      at('No site', '2030-01-01 10:00', '2030-01-01 11:00', { website: '' }),
    );
    expect(empty.website).toBe(empty.url);
  });

  it.each([
    ['20$', '20$', ['20'], '$', 'postfix'],
    [['0$', '20$', '30$'], 'Free – 30$', ['0', '20', '30'], '$', 'postfix'],
    [23, '$23', ['23'], '', ''],
    ['€10 - €25', '€10 – €25', ['10', '25'], '€', 'prefix'],
    ['0', 'Free', ['0'], '', ''],
    ['Donation', 'Donation', [], '', ''],
  ])('formats cost %j as %j', async (cost, text, values, symbol, position) => {
    const event = await createEvent(server, at('Priced', '2030-01-01 10:00', '2030-01-01 11:00', { cost }));
    expect(event.cost).toBe(text);
    expect(event.cost_details).toEqual({
      currency_symbol: symbol,
      currency_code: '',
      currency_position: position,
      values,
    });
  });

  it('sanitizes the description and excerpt, and keeps titles plain', async () => {
    const event = await createEvent(
      server,
      at('<b>Bold</b> title<script>alert(1)</script>', '2030-01-01 10:00', '2030-01-01 11:00', {
        description:
          '<p onclick="steal()">Hello <strong>world</strong></p><script>alert("x")</script><a href="javascript:alert(1)">link</a>',
        excerpt: '<em>Short</em><img src="x" onerror="alert(1)">',
      }),
    );
    expect(event.title).toBe('Bold title');
    expect(event.description).not.toMatch(/script|onclick|javascript:|alert/i);
    expect(event.description).toContain('<p>Hello <strong>world</strong></p>');
    expect(event.description).toContain('link');
    expect(event.excerpt).not.toMatch(/onerror|alert/);
    expect(event.excerpt).toContain('<em>Short</em>');
  });

  it('ignores generated fields sent by the client', async () => {
    const event = await createEvent(
      server,
      at('Generated', '2030-01-01 10:00', '2030-01-01 11:00', {
        url: 'http://evil.test/',
        utc_start_date: '1999-01-01 00:00:00',
        timezone_abbr: 'XYZ',
        cost_details: { values: ['99'] },
        id: 9999,
      }),
    );
    expect(event.url).toBe(`${server.engine.origin}/event/generated/`);
    expect(event.utc_start_date).toBe('2030-01-01 10:00:00');
    expect(event.timezone_abbr).toBe('UTC');
    expect(event.cost_details.values).toEqual([]);
    expect(event.id).not.toBe(9999);
  });
});

describe('POST /events: dates and time zones (UTC site)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('reads plain dates in the site zone and fills the UTC twins', async () => {
    const event = await createEvent(server, at('Plain', '2030-06-01 10:00:00', '2030-06-01 12:30:00'));
    expect(event).toMatchObject({
      start_date: '2030-06-01 10:00:00',
      end_date: '2030-06-01 12:30:00',
      utc_start_date: '2030-06-01 10:00:00',
      utc_end_date: '2030-06-01 12:30:00',
      timezone: 'UTC',
      timezone_abbr: 'UTC',
    });
    expect(event.utc_end_date_details).toEqual({
      year: '2030',
      month: '06',
      day: '01',
      hour: '12',
      minutes: '30',
      seconds: '00',
    });
  });

  it('reads the dates in the event time zone when one is given', async () => {
    const hk = await createEvent(
      server,
      at('HK', '2018-01-01 4pm', '2018-01-01 6pm', { timezone: 'Asia/Hong_Kong' }),
    );
    expect(hk).toMatchObject({
      start_date: '2018-01-01 16:00:00',
      end_date: '2018-01-01 18:00:00',
      utc_start_date: '2018-01-01 08:00:00',
      utc_end_date: '2018-01-01 10:00:00',
      timezone: 'Asia/Hong_Kong',
      timezone_abbr: 'HKT',
    });
    const summer = await createEvent(
      server,
      at('NY summer', '2030-07-04 20:00', '2030-07-04 22:00', { timezone: 'America/New_York' }),
    );
    expect(summer).toMatchObject({ utc_start_date: '2030-07-05 00:00:00', timezone_abbr: 'EDT' });
    const offset = await createEvent(
      server,
      at('Offset', '2030-01-01 10:00', '2030-01-01 11:00', { timezone: 'UTC+5' }),
    );
    expect(offset).toMatchObject({ timezone: 'UTC+5', utc_start_date: '2030-01-01 05:00:00' });
  });

  it('reads ISO 8601 with an offset as that instant, shown in the event zone', async () => {
    const event = await createEvent(
      server,
      at('ISO', '2030-01-01T10:00:00+02:00', '2030-01-01T12:00:00Z', { timezone: 'Europe/Rome' }),
    );
    expect(event.start_date).toBe('2030-01-01 09:00:00');
    expect(event.utc_start_date).toBe('2030-01-01 08:00:00');
    expect(event.end_date).toBe('2030-01-01 13:00:00');
  });

  it('accepts Unix timestamps', async () => {
    const ts = DateTime.fromISO('2030-03-01T12:00:00Z').toSeconds();
    const event = await createEvent(server, at('Timestamp', ts, ts + 3600));
    expect(event.start_date).toBe('2030-03-01 12:00:00');
    expect(event.end_date).toBe('2030-03-01 13:00:00');
  });

  it.each([
    [
      'tomorrow 9am',
      (now: DateTime) => now.plus({ days: 1 }).set({ hour: 9, minute: 0, second: 0 }).toFormat(SQL),
    ],
    [
      'yesterday 23:59',
      (now: DateTime) => now.minus({ days: 1 }).set({ hour: 23, minute: 59, second: 0 }).toFormat(SQL),
    ],
    [
      'next wednesday 4pm',
      (now: DateTime) =>
        now
          .plus({ days: (3 - now.weekday + 7) % 7 || 7 })
          .set({ hour: 16, minute: 0, second: 0 })
          .toFormat(SQL),
    ],
  ])('understands %j in the event zone', async (text, expectedOf) => {
    for (const zone of ['UTC', 'Asia/Hong_Kong', 'America/New_York']) {
      const { result, expected } = await aroundRequest(
        () => expectedOf(DateTime.now().setZone(zone)),
        () => post(server, at(text, text, '2099-01-01 00:00:00', { timezone: zone })),
      );
      expect(result.status, JSON.stringify(result.body)).toBe(201);
      expectEventRecord(result.body);
      expect(expected, zone).toContain(result.body.start_date);
      expect(result.body.utc_start_date).toBe(
        DateTime.fromSQL(result.body.start_date, { zone }).toUTC().toFormat(SQL),
      );
    }
  });

  it('understands "+5 weeks" from now', async () => {
    const before = DateTime.utc().plus({ weeks: 5 }).toFormat(SQL);
    const result = await post(server, at('Later', '2020-01-01', '+5 weeks'));
    const after = DateTime.utc().plus({ weeks: 5 }).toFormat(SQL);
    expect(result.status).toBe(201);
    expect(result.body.end_date >= before && result.body.end_date <= after).toBe(true);
  });

  it('normalises all-day events to whole days, also over several days', async () => {
    const one = await createEvent(
      server,
      at('Day', '2030-05-01 10:00', '2030-05-01 11:00', { all_day: true }),
    );
    expect(one).toMatchObject({
      all_day: true,
      start_date: '2030-05-01 00:00:00',
      end_date: '2030-05-01 23:59:59',
      utc_start_date: '2030-05-01 00:00:00',
      utc_end_date: '2030-05-01 23:59:59',
    });
    const multi = await createEvent(
      server,
      at('Days', '2030-05-01 15:00', '2030-05-03 09:00', { all_day: 'true', timezone: 'Europe/Rome' }),
    );
    expect(multi).toMatchObject({
      all_day: true,
      start_date: '2030-05-01 00:00:00',
      end_date: '2030-05-03 23:59:59',
      utc_start_date: '2030-04-30 22:00:00',
      utc_end_date: '2030-05-03 21:59:59',
    });
    const dateOnly = await createEvent(server, at('Dates only', '2030-05-01', '2030-05-02', { all_day: 1 }));
    expect(dateOnly).toMatchObject({ start_date: '2030-05-01 00:00:00', end_date: '2030-05-02 23:59:59' });
  });

  it('sets the publication date from date (site zone) or date_utc', async () => {
    const dated = await createEvent(
      server,
      at('Dated', '2030-01-01 10:00', '2030-01-01 11:00', { date: '2018-05-01 10:00:00' }),
    );
    expect(dated.date).toBe('2018-05-01 10:00:00');
    expect(dated.date_utc).toBe('2018-05-01 10:00:00');
    const utc = await createEvent(
      server,
      at('Dated UTC', '2030-01-01 10:00', '2030-01-01 11:00', { date_utc: '2018-05-02 08:30:00' }),
    );
    expect(utc.date_utc).toBe('2018-05-02 08:30:00');
    const stamp = await createEvent(
      server,
      at('Dated stamp', '2030-01-01 10:00', '2030-01-01 11:00', {
        date: DateTime.fromISO('2019-02-03T04:05:06Z').toSeconds(),
      }),
    );
    expect(stamp.date).toBe('2019-02-03 04:05:06');
  });
});

describe('POST /events: a site in America/New_York', () => {
  const zone = 'America/New_York';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ timezone: zone });
  });
  afterAll(() => server.close());

  it('reads "tomorrow 9am" in the site zone without a timezone', async () => {
    const { result, expected } = await aroundRequest(
      () =>
        DateTime.now().setZone(zone).plus({ days: 1 }).set({ hour: 9, minute: 0, second: 0 }).toFormat(SQL),
      () => post(server, at('Tomorrow', 'tomorrow 9am', 'tomorrow 11am')),
    );
    expect(result.status).toBe(201);
    const event = expectEventRecord(result.body);
    expect(expected).toContain(event.start_date);
    expect(event.timezone).toBe(zone);
    const start = DateTime.fromSQL(event.start_date, { zone });
    expect(event.utc_start_date).toBe(start.toUTC().toFormat(SQL));
    expect(['13', '14']).toContain(event.utc_start_date_details.hour);
    expect(event.timezone_abbr).toBe(start.isInDST ? 'EDT' : 'EST');
  });

  it('reads "2018-01-01 4pm" in the event zone (Hong Kong)', async () => {
    const event = await createEvent(
      server,
      at('HK', '2018-01-01 4pm', '2018-01-01 5pm', { timezone: 'Asia/Hong_Kong' }),
    );
    expect(event.start_date).toBe('2018-01-01 16:00:00');
    expect(event.utc_start_date).toBe('2018-01-01 08:00:00');
  });

  it('shows publication dates in the site zone', async () => {
    const event = await createEvent(
      server,
      at('Dated', '2030-01-01 10:00', '2030-01-01 11:00', { date: '2018-01-10 10:00:00' }),
    );
    expect(event.date).toBe('2018-01-10 10:00:00');
    expect(event.date_utc).toBe('2018-01-10 15:00:00');
  });

  it('gives a site-zone event the site zone even with an empty timezone', async () => {
    const event = await createEvent(
      server,
      at('Empty zone', '2030-01-01 10:00', '2030-01-01 11:00', { timezone: '' }),
    );
    expect(event.timezone).toBe(zone);
    expect(event.utc_start_date).toBe('2030-01-01 15:00:00');
  });
});

describe('POST /events: categories and tags', () => {
  let server: TestServer;
  let author: Auth;
  beforeAll(async () => {
    server = await startTestServer();
    author = await server.userHeaders('arthur', 'author');
  });
  afterAll(() => server.close());

  const names = (terms: Array<{ name: string }>) => terms.map((term) => term.name);

  it('creates unknown names, re-uses existing names, slugs and ids, in name order without duplicates', async () => {
    const first = await createEvent(
      server,
      at('Terms', '2030-01-01 10:00', '2030-01-01 11:00', {
        categories: ['Zed', 'Alpha'],
        tags: 'rock, pop',
      }),
    );
    expect(names(first.categories)).toEqual(['Alpha', 'Zed']);
    expect(names(first.tags)).toEqual(['pop', 'rock']);
    const alpha = first.categories[0];
    const zed = first.categories[1];

    const second = await createEvent(
      server,
      at('Terms again', '2030-01-01 10:00', '2030-01-01 11:00', {
        categories: `${zed.id},alpha,ALPHA,Zed,New One`,
        tags: ['Rock', 'rock', first.tags[0].id],
      }),
    );
    expect(second.categories.map((term: { id: number }) => term.id)).toEqual([
      alpha.id,
      second.categories[1].id,
      zed.id,
    ]);
    expect(names(second.categories)).toEqual(['Alpha', 'New One', 'Zed']);
    expect(second.categories[1].slug).toBe('new-one');
    expect(names(second.tags)).toEqual(['pop', 'rock']);
    expect(second.categories[0].count).toBe(2);

    const list = await server.api('categories?hide_empty=false');
    expect(list.body.categories.map((term: { name: string }) => term.name).sort()).toEqual([
      'Alpha',
      'New One',
      'Zed',
    ]);
  });

  it('skips unknown numeric ids silently', async () => {
    const event = await createEvent(
      server,
      at('Unknown ids', '2030-01-01 10:00', '2030-01-01 11:00', { categories: [99999], tags: '88888' }),
    );
    expect(event.categories).toEqual([]);
    expect(event.tags).toEqual([]);
  });

  it('does not mix the two taxonomies', async () => {
    const event = await createEvent(
      server,
      at('Cross', '2030-01-01 10:00', '2030-01-01 11:00', { categories: ['Shared'], tags: ['Shared'] }),
    );
    expect(event.categories[0].taxonomy).toBe('tribe_events_cat');
    expect(event.tags[0].taxonomy).toBe('post_tag');
    expect(event.categories[0].id).not.toBe(event.tags[0].id);
  });

  it('lets any event author create terms this way', async () => {
    const event = await createEvent(
      server,
      at('By author', '2030-01-01 10:00', '2030-01-01 11:00', {
        categories: 'Author Cat',
        tags: 'author-tag',
      }),
      author,
    );
    expect(names(event.categories)).toEqual(['Author Cat']);
    expect(names(event.tags)).toEqual(['author-tag']);
  });
});

describe('POST /events: venue and organizers', () => {
  let server: TestServer;
  let contributor: Auth;
  const post2: Record<string, number> = {};
  beforeAll(async () => {
    server = await startTestServer();
    contributor = await server.userHeaders('connie', 'contributor');
    for (const [key, name] of [
      ['o1', 'Org One'],
      ['o2', 'Org Two'],
    ]) {
      const result = await server.api('organizers', {
        method: 'POST',
        auth: server.admin,
        json: { organizer: name },
      });
      post2[key] = result.body.id;
    }
    const venue = await server.api('venues', {
      method: 'POST',
      auth: server.admin,
      json: { venue: 'Existing Hall' },
    });
    post2.v1 = venue.body.id;
  });
  afterAll(() => server.close());

  const base = (extra: Record<string, unknown>) =>
    at('Linked', '2030-01-01 10:00', '2030-01-01 11:00', extra);

  it('links a venue by id, CSV id or {id}', async () => {
    for (const venue of [post2.v1, String(post2.v1), { id: post2.v1 }]) {
      const event = await createEvent(server, base({ venue }));
      expect(event.venue.id).toBe(post2.v1);
      expect(event.venue.venue).toBe('Existing Hall');
    }
  });

  it('creates an inline venue with all its fields', async () => {
    const event = await createEvent(
      server,
      base({
        venue: {
          venue: 'Inline Venue',
          address: '5 Road',
          city: 'Austin',
          country: 'United States',
          state: 'TX',
          zip: '73301',
          phone: '+1 555',
          website: 'https://venue.example.test',
          show_map: false,
        },
      }),
    );
    expect(event.venue).toMatchObject({
      venue: 'Inline Venue',
      address: '5 Road',
      city: 'Austin',
      country: 'United States',
      state: 'TX',
      zip: '73301',
      phone: '+1 555',
      website: 'https://venue.example.test',
      stateprovince: 'TX',
      show_map: false,
      show_map_link: true,
    });
    const withProvince = await createEvent(
      server,
      base({ venue: { venue: 'Province Venue', country: 'Italy', stateProvince: 'Lazio' } }),
    );
    expect(withProvince.venue.stateprovince).toBe('Lazio');
  });

  it('re-uses a venue with the same name (case-insensitive) instead of duplicating it', async () => {
    const first = await createEvent(server, base({ venue: { venue: 'Twin Venue', city: 'Rome' } }));
    const second = await createEvent(server, base({ venue: { venue: 'TWIN VENUE', zip: '00100' } }));
    expect(second.venue.id).toBe(first.venue.id);
    expect(second.venue.zip).toBe('00100');
    const venues = await server.api('venues?search=twin');
    expect(venues.body.total).toBe(1);
  });

  it('links organizers from objects, ids and {id} in request order (REFERENCE §5.4)', async () => {
    const event = await createEvent(
      server,
      base({
        organizer: [
          { organizer: 'A org', email: 'a@example.test' },
          { id: post2.o2 },
          { id: post2.o1 },
          { organizer: 'C org' },
        ],
      }),
    );
    expect(event.organizer.map((organizer) => organizer.organizer)).toEqual([
      'A org',
      'Org Two',
      'Org One',
      'C org',
    ]);
    expect(event.organizer[1].id).toBe(post2.o2);
    const csv = await createEvent(server, base({ organizer: `${post2.o1},${post2.o2}` }));
    expect(csv.organizer.map((organizer: { id: number }) => organizer.id)).toEqual([post2.o1, post2.o2]);
    const ids = await createEvent(server, base({ organizer: [post2.o2, post2.o2, post2.o1] }));
    expect(ids.organizer.map((organizer: { id: number }) => organizer.id)).toEqual([post2.o2, post2.o1]);
  });

  it.each([
    ['venue', 'foo'],
    ['venue', 99999],
    ['venue', { id: 99999 }],
    ['venue', { address: 'no name' }],
    ['venue', { venue: '' }],
    ['venue', { venue: 'Bad site', website: 'not a url' }],
    ['organizer', [{ email: 'nameless@example.test' }]],
    ['organizer', [99999]],
    ['organizer', ['foo']],
    ['organizer', [{ id: 'x' }]],
  ])('refuses %s=%j', async (name, value) => {
    expectInvalidParams(await post(server, base({ [name]: value })), name);
  });

  it('refuses ids of the other kind', async () => {
    expectInvalidParams(await post(server, base({ venue: post2.o1 })), 'venue');
    expectInvalidParams(await post(server, base({ organizer: [post2.v1] })), 'organizer');
    expectInvalidParams(await post(server, base({ organizer: [{ id: post2.v1 }] })), 'organizer');
  });

  it('treats empty values as "no venue / no organizer"', async () => {
    for (const empty of [0, '', [], null]) {
      const event = await createEvent(server, base({ venue: empty, organizer: empty }));
      expect(event.venue).toEqual([]);
      expect(event.organizer).toEqual([]);
    }
  });

  it('creates nothing when a later part of the request is invalid', async () => {
    const before = (await server.api('venues?search=ghost')).body.total;
    const result = await post(server, base({ venue: { venue: 'Ghost Venue' }, organizer: [99999] }));
    expect(result.status).toBe(400);
    expect((await server.api('venues?search=ghost')).body.total).toBe(before);
  });

  it('lets contributors create inline venues (scaled back like their event)', async () => {
    const event = await createEvent(server, base({ venue: { venue: 'Contributed Venue' } }), contributor);
    expect(event.status).toBe('draft');
    expect(event.venue).toMatchObject({ venue: 'Contributed Venue' });
  });
});

describe('POST /events: status, author and images by role', () => {
  let server: TestServer;
  let users: Record<'editor' | 'author' | 'contributor', Auth>;
  let contributorId: number;
  beforeAll(async () => {
    server = await startTestServer();
    users = {
      editor: await server.userHeaders('eddie', 'editor'),
      author: await server.userHeaders('arthur', 'author'),
      contributor: await server.userHeaders('connie', 'contributor'),
    };
    contributorId = [...server.engine.store.users.values()].find((user) => user.login === 'connie')!.id;
  });
  afterAll(() => server.close());

  const base = (extra: Record<string, unknown> = {}) =>
    at('Status', '2030-01-01 10:00', '2030-01-01 11:00', extra);

  it.each([
    ['contributor', 'publish', 'pending'],
    ['contributor', 'future', 'pending'],
    ['contributor', undefined, 'draft'],
    ['contributor', 'draft', 'draft'],
    ['contributor', 'pending', 'pending'],
    ['author', 'publish', 'publish'],
    ['author', undefined, 'publish'],
    ['author', 'draft', 'draft'],
    ['editor', 'private', 'private'],
    ['editor', undefined, 'publish'],
  ] as const)('scales a %s asking for %s back to %s', async (role, status, stored) => {
    const event = await createEvent(server, base(status ? { status } : {}), users[role]);
    expect(event.status).toBe(stored);
  });

  it('sets the author: the caller by default, or the one named', async () => {
    const own = await createEvent(server, base(), users.contributor);
    expect(own.author).toBe(String(contributorId));
    const named = await createEvent(server, base({ author: contributorId }));
    expect(named.author).toBe(String(contributorId));
  });

  it('attaches an image by URL for authors, without downloading it', async () => {
    const event = await createEvent(
      server,
      base({ image: 'https://img.example.test/poster.png' }),
      users.author,
    );
    expect(event.image).toMatchObject({ url: 'https://img.example.test/poster.png', extension: 'png' });
    expect(typeof event.image.id).toBe('number');
    // The same URL re-uses the media item; its id is then accepted too.
    const again = await createEvent(server, base({ image: 'https://img.example.test/poster.png' }));
    expect(again.image.id).toBe(event.image.id);
    const byId = await createEvent(server, base({ image: event.image.id }));
    expect(byId.image).toEqual(event.image);
  });

  it('refuses an image URL from a contributor (no upload_files)', async () => {
    expectInvalidParams(
      await post(server, base({ image: 'https://img.example.test/poster.png' }), users.contributor),
      'image',
    );
  });

  it('refuses an image URL naming a file that is not a picture, as the original (400), and stores nothing', async () => {
    const mediaBefore = server.engine.store.media.size;
    for (const url of [
      'https://img.example.test/scan.raw',
      'https://img.example.test/notes.txt',
      'https://img.example.test/flyer.PDF?download=1',
    ]) {
      const result = await post(server, base({ image: url }));
      expectInvalidParams(result, 'image');
      expect(result.body.data.params.image).toMatch(/is not a picture/);
    }
    // The venue and organizer `image` follow the same rule.
    expectInvalidParams(
      await server.api('venues', {
        method: 'POST',
        auth: server.admin,
        json: { venue: 'Raw Venue', image: 'https://img.example.test/a.raw' },
      }),
      'image',
    );
    expect(server.engine.store.media.size).toBe(mediaBefore);
    // Offline, an address without a file type is taken on trust (the original would fetch it).
    for (const url of [
      'https://img.example.test/picture',
      'https://img.example.test/photo.JPG?w=800',
      'https://img.example.test/2024.10',
    ]) {
      expect((await createEvent(server, base({ image: url }))).image.url).toBe(url);
    }
  });

  it('refuses an image id that is not a media item', async () => {
    const event = await createEvent(server, base());
    expectInvalidParams(await post(server, base({ image: event.id })), 'image');
  });
});

describe('POST /events: languages', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('records ml_language, else the language root, else en', async () => {
    const plain = await createEvent(server, at('Plain', '2030-01-01 10:00', '2030-01-01 11:00'));
    expect(plain.language).toBe('en');
    const fr = await createEvent(
      server,
      at('Fr', '2030-01-01 10:00', '2030-01-01 11:00', { ml_language: 'fr' }),
    );
    expect(fr.language).toBe('fr');
    const viaRoot = await server.api(`${server.engine.origin}/it/wp-json/cal/events/v1/events`, {
      method: 'POST',
      auth: server.admin,
      json: at('It', '2030-01-01 10:00', '2030-01-01 11:00', { categories: ['Musica'] }),
    });
    expect(viaRoot.status).toBe(201);
    const it = expectEventRecord(viaRoot.body);
    expect(it.language).toBe('it');
    expect(it.rest_url).toBe(`${server.engine.origin}/it/wp-json/cal/events/v1/events/${it.id}`);
    expect(it.categories[0].language).toBe('it');
    const both = await server.api(`${server.engine.origin}/it/wp-json/cal/events/v1/events?ml_language=de`, {
      method: 'POST',
      auth: server.admin,
      json: at('De', '2030-01-01 10:00', '2030-01-01 11:00'),
    });
    expect(both.body.language).toBe('de');
  });

  it('refuses an unknown language', async () => {
    expectInvalidParams(
      await post(server, at('Xx', '2030-01-01 10:00', '2030-01-01 11:00', { ml_language: 'xx' })),
      'ml_language',
    );
  });
});

describe('id allocation', () => {
  it('gives inline venues and organizers their ids before the event, as the reference (sample 40)', async () => {
    const server = await startTestServer();
    try {
      const created = await server.api('events', {
        method: 'POST',
        auth: server.admin,
        json: {
          title: 'Ordered ids',
          start_date: '2030-03-01 18:00:00',
          end_date: '2030-03-01 21:00:00',
          venue: { venue: 'Id Venue' },
          organizer: [{ organizer: 'Id Organizer' }],
        },
      });
      expect(created.status).toBe(201);
      expect(created.body.venue.id).toBeLessThan(created.body.organizer[0].id);
      expect(created.body.organizer[0].id).toBeLessThan(created.body.id);
    } finally {
      await server.close();
    }
  });
});
