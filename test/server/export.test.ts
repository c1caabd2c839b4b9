import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';

/** `GET calendar-desk/v1/export`: the app's export, the same files as the CLI's `export`, for administrators. */

let server: TestServer;
let musicId: number;
let venueId: number;

const exportUrl = (query: string) => `${server.engine.origin}/wp-json/calendar-desk/v1/export?${query}`;
const download = (query: string, auth: Record<string, string> = server.admin) =>
  server.api(exportUrl(query), { auth });
/** Every date: a filtered export otherwise keeps the list's default window, as `GET /events`. */
const ALL_DATES = 'start_date=1000-01-01&end_date=9999-12-31';

beforeAll(async () => {
  server = await startTestServer();
  const created = async (path: string, json: unknown) => {
    const answer = await server.api(path, { method: 'POST', json, auth: server.admin });
    expect(answer.status).toBe(201);
    return answer.body.id as number;
  };
  musicId = await created('categories', { name: 'Music' });
  const talks = await created('categories', { name: 'Talks' });
  venueId = await created('venues', { venue: 'Old Mill Hall' });
  await created('organizers', { organizer: 'Friends of the Mill' });
  await created('events', eventBody('Harvest Concert', 10, { categories: [musicId], venue: venueId }));
  await created('events', eventBody('Choir Rehearsal', 12, { categories: [musicId], status: 'draft' }));
  await created('events', eventBody('Beekeeping Talk', 14, { categories: [talks] }));
});
afterAll(() => server.close());

describe('export formats', () => {
  it('answers the whole calendar as an .ics attachment that no cache keeps', async () => {
    const answer = await download('format=ics');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="calendar-desk-\d{4}-\d{2}-\d{2}\.ics"$/,
    );
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const text = answer.body as string;
    expect(text.startsWith('BEGIN:VCALENDAR')).toBe(true);
    for (const title of ['Harvest Concert', 'Choir Rehearsal', 'Beekeeping Talk'])
      expect(text).toContain(`SUMMARY:${title}`);
  });

  it('answers CSV with the importer columns, one file per kind', async () => {
    const events = await download('format=csv');
    expect(events.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(events.headers.get('content-disposition')).toMatch(/filename="calendar-desk-events-[\d-]+\.csv"/);
    const rows = parse(events.body as string, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row['Event Name']).sort()).toEqual([
      'Beekeeping Talk',
      'Choir Rehearsal',
      'Harvest Concert',
    ]);
    const venues = await download('format=csv&kind=venues');
    expect(venues.headers.get('content-disposition')).toMatch(/filename="calendar-desk-venues-[\d-]+\.csv"/);
    expect(venues.body as string).toContain('Old Mill Hall');
    const organizers = await download('format=csv&kind=organizers');
    expect(organizers.body as string).toContain('Friends of the Mill');
  });

  it('answers the JSON dump of the whole calendar even when a filter is sent (it is a backup)', async () => {
    const answer = await download(`format=json&scope=filter&categories=${musicId}&status=publish`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(/filename="calendar-desk-backup-[\d-]+\.json"/);
    expect(answer.body.format).toBe('calendar-desk-dump');
    expect(Object.keys(answer.body.data.events)).toHaveLength(3);
  });
});

describe('export of what a filter shows', () => {
  it('writes only the events the filter matches, drafts included unless a status is asked for', async () => {
    const all = await download(`format=ics&scope=filter&categories=${musicId}&${ALL_DATES}`);
    expect(all.headers.get('content-disposition')).toMatch(/filename="calendar-desk-filtered-[\d-]+\.ics"/);
    expect(all.body).toContain('SUMMARY:Harvest Concert');
    expect(all.body).toContain('SUMMARY:Choir Rehearsal');
    expect(all.body).not.toContain('Beekeeping Talk');

    const published = await download(
      `format=ics&scope=filter&categories=${musicId}&status=publish&${ALL_DATES}`,
    );
    expect(published.body).toContain('SUMMARY:Harvest Concert');
    expect(published.body).not.toContain('Choir Rehearsal');
  });

  it('filters an events CSV by search and venue, and keeps venue lists whole', async () => {
    const searched = await download(`format=csv&scope=filter&search=beekeeping&${ALL_DATES}`);
    const rows = parse(searched.body as string, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row['Event Name'])).toEqual(['Beekeeping Talk']);
    const atVenue = await download(`format=csv&scope=filter&venue=${venueId}&${ALL_DATES}`);
    expect(parse(atVenue.body as string, { columns: true })).toHaveLength(1);
    const venues = await download(`format=csv&kind=venues&scope=filter&search=nothing-matches`);
    expect(venues.body as string).toContain('Old Mill Hall');
  });

  it('leaves a draft date of a published series out of a published-only .ics (EXDATE), not out of everything', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const head = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: {
        title: 'Weekly Practice',
        start_date: `${day(20)} 19:00:00`,
        end_date: `${day(20)} 20:00:00`,
        status: 'publish',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      },
    });
    expect(head.status, JSON.stringify(head.body)).toBe(201);
    const rest = await server.api(`events?post_parent=${head.body.id}&status=any`, { auth: server.admin });
    const second = rest.body.events[0];
    const drafted = await server.api(`events/${second.id}`, {
      method: 'POST',
      auth: server.admin,
      json: { status: 'draft' },
    });
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(200);
    expect(second.start_date).toBe(`${day(27)} 19:00:00`);

    const published = await download(`format=ics&scope=filter&status=publish&search=practice&${ALL_DATES}`);
    expect(published.body).toContain('RRULE:FREQ=WEEKLY;COUNT=3');
    expect(published.body).toMatch(new RegExp(`EXDATE[^\\r\\n]*${day(27).replace(/-/g, '')}T190000`));
    const whole = await download('format=ics');
    expect(whole.body).toContain('RRULE:FREQ=WEEKLY;COUNT=3');
    expect(whole.body).not.toMatch(/EXDATE/);
  });

  it('ignores the filters when the scope is all', async () => {
    const answer = await download(`format=ics&categories=${musicId}`);
    expect(answer.body).toContain('Beekeeping Talk');
  });
});

describe('who may export, and bad requests', () => {
  it('refuses anyone but an administrator: 401 without credentials, 403 for an editor', async () => {
    const anonymous = await download('format=ics', {});
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(anonymous.body)).not.toContain('Choir Rehearsal');
    const editor = await download('format=ics', await server.userHeaders('editor1', 'editor'));
    expect(editor.status).toBe(403);
    expect(JSON.stringify(editor.body)).not.toContain('Choir Rehearsal');
  });

  it.each([
    ['format=pdf', 'format'],
    ['format=csv&kind=people', 'kind'],
    ['format=ics&scope=some', 'scope'],
    ['format=ics&scope=filter&categories=no-such-category', 'categories'],
    ['format=ics&scope=filter&venue=99999', 'venue'],
  ])('answers %s with 400 rest_invalid_param naming %s', async (query, param) => {
    const answer = await download(query);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('rest_invalid_param');
    expect(Object.keys(answer.body.data.params)).toContain(param);
  });

  it('asks for the format when none is given', async () => {
    const answer = await download('');
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('rest_missing_callback_param');
    expect(answer.body.data.params).toContain('format');
  });
});
