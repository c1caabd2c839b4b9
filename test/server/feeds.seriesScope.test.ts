import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

// A category feed holds the dates of a series that are in the category, not the whole series because one of
// its dates is: one rehearsal of the weekly choir series moved to the Youth category is the Youth feed's only
// event, and a date the Choir feed no longer holds.

let server: TestServer;
let feeds: { categories: { name: string; http: string }[] };

beforeAll(async () => {
  server = await startTestServer();
  const category = async (name: string) =>
    (await server.api('categories', { method: 'POST', json: { name }, auth: server.admin })).body
      .id as number;
  const choir = await category('Choir');
  const youth = await category('Youth');
  const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const created = await server.api('events', {
    method: 'POST',
    auth: server.admin,
    json: {
      title: 'Choir rehearsal',
      status: 'publish',
      timezone: 'Europe/Rome',
      start_date: `${day} 19:30:00`,
      end_date: `${day} 21:30:00`,
      categories: [choir],
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const series = await server.api(`events?post_parent=${created.body.id}&per_page=50`, {
    auth: server.admin,
  });
  const second = [...series.body.events].sort((a, b) => a.utc_start_date.localeCompare(b.utc_start_date))[0];
  const moved = await server.api(`events/${second.id}`, {
    method: 'POST',
    auth: server.admin,
    json: { title: 'Youth evening', categories: [youth], scope: 'this' },
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  feeds = (await server.api(`${server.engine.origin}/wp-json/calendar-desk/v1/feeds`, { auth: server.admin }))
    .body;
}, 60_000);

afterAll(() => server?.close());

const feedText = async (name: string) => {
  const response = await fetch(feeds.categories.find((feed) => feed.name === name)!.http);
  expect(response.status).toBe(200);
  return (await response.text()).replace(/\r\n[ \t]/g, '');
};
/** The VEVENTs of a feed (its VTIMEZONEs have RRULEs of their own). */
const vevents = (text: string) => text.match(/^BEGIN:VEVENT[\s\S]*?^END:VEVENT/gm) ?? [];

describe('a series in category feeds', () => {
  it('gives the Youth feed only the date moved to Youth', async () => {
    const events = vevents(await feedText('Youth'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatch(/^SUMMARY:Youth evening\r?$/m);
    expect(events[0]).not.toMatch(/^(RRULE|RECURRENCE-ID)/m);
  });

  it('leaves that date out of the Choir feed', async () => {
    const events = vevents(await feedText('Choir'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatch(/^SUMMARY:Choir rehearsal\r?$/m);
    expect(events[0]).toMatch(/^RRULE:FREQ=WEEKLY;COUNT=4\r?$/m);
    expect(events[0]).toMatch(/^EXDATE;TZID=Europe\/Rome:\d{8}T193000\r?$/m);
  });
});
