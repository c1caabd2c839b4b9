import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALENDAR_LIST_MAX,
  CALENDAR_TOO_MANY_CODE,
  calendarListSchema,
} from '../../src/shared/schemas/calendarList';
import { startTestServer, type TestServer } from '../helpers/server';
import { createEvent, dayFromNow, expectError, query } from './events.helpers';

/**
 * `GET calendar-desk/v1/calendar`: every event of a range in one answer, with the fields the calendar shows,
 * under the events archive's visibility rules (checked here against GET /events, page by page).
 */

type Auth = Record<string, string>;
let server: TestServer;
let contributor: Auth;
let author: Auth;
let subscriber: Auth;

const RANGE = { ends_after: '2030-05-31', starts_before: '2030-06-30' };

async function calendar(params: Record<string, string | number | boolean>, auth: Auth = {}) {
  const answer = await server.api(
    `${server.engine.origin}/wp-json/calendar-desk/v1/calendar?${query(params)}`,
    { auth },
  );
  if (answer.status === 200) calendarListSchema.parse(answer.body);
  return answer;
}

/** Every page of GET /events with the same filters. */
async function archiveAll(params: Record<string, string | number | boolean>, auth: Auth = {}) {
  const events: Array<Record<string, unknown>> = [];
  for (let page = 1; ; page++) {
    const answer = await server.api(`events?${query({ ...params, per_page: 50, page })}`, { auth });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    events.push(...answer.body.events);
    if (page >= Number(answer.headers.get('X-WP-TotalPages'))) return events;
  }
}

beforeAll(async () => {
  server = await startTestServer({ timezone: 'Europe/Rome' });
  contributor = await server.userHeaders('carla', 'contributor');
  author = await server.userHeaders('arturo', 'author');
  subscriber = await server.userHeaders('sara', 'subscriber');
  const venue = await server.api('venues', {
    method: 'POST',
    auth: server.admin,
    json: { venue: 'Sala Verdi', address: 'Via Roma 1', city: 'Parma' },
  });
  const organizer = await server.api('organizers', {
    method: 'POST',
    auth: server.admin,
    json: { organizer: 'Coro San Marco' },
  });
  const at = (day: string, hour: number) => `2030-06-${day} ${String(hour).padStart(2, '0')}:00:00`;
  await createEvent(server, {
    title: 'Christmas Concert',
    start_date: at('10', 19),
    end_date: at('10', 21),
    status: 'publish',
    cost: '15€ / 10€ reduced',
    venue: venue.body.id,
    organizer: [organizer.body.id],
    categories: ['Concerts'],
  });
  await createEvent(server, {
    title: 'Board meeting',
    start_date: at('11', 9),
    end_date: at('11', 10),
    status: 'draft',
  });
  await createEvent(server, {
    title: 'Private rehearsal',
    start_date: at('12', 18),
    end_date: at('12', 20),
    status: 'publish',
    post_password: 'alto',
    cost: '5',
    venue: venue.body.id,
  });
  await createEvent(server, {
    title: 'Hidden setup',
    start_date: at('13', 8),
    end_date: at('13', 9),
    status: 'publish',
    hide_from_listings: true,
  });
  // A festival running into June from May: in the range by overlap.
  await createEvent(server, {
    title: 'Festival',
    start_date: '2030-05-30 10:00:00',
    end_date: at('02', 22),
    status: 'publish',
  });
  await createEvent(server, {
    title: 'July fair',
    start_date: '2030-07-02 10:00:00',
    end_date: '2030-07-02 12:00:00',
    status: 'publish',
  });
  await createEvent(
    server,
    { title: "Carla's draft", start_date: at('14', 10), end_date: at('14', 11), status: 'draft' },
    contributor,
  );
  await createEvent(
    server,
    {
      title: "Arturo's talk",
      start_date: at('15', 10),
      end_date: at('15', 11),
      status: 'publish',
      cost: '8',
    },
    author,
  );
  // A month of 50 more, so that the archive needs more than one page.
  for (let day = 1; day <= 25; day++) {
    for (const hour of [10, 16]) {
      const date = `2030-06-${String(day).padStart(2, '0')}`;
      await createEvent(server, {
        title: `Rehearsal ${day}-${hour}`,
        start_date: `${date} ${hour}:00:00`,
        end_date: `${date} ${hour + 1}:30:00`,
        status: 'publish',
      });
    }
  }
}, 120_000);
afterAll(() => server.close());

describe('GET calendar-desk/v1/calendar', () => {
  it('lists the same events as every page of GET /events, in one answer, with the fields the calendar shows', async () => {
    const params = { ...RANGE, status: 'any', show_hidden: true };
    const answer = await calendar(params, server.admin);
    expect(answer.status).toBe(200);
    const full = await archiveAll({ ...params, context: 'edit' }, server.admin);
    expect(full.length).toBeGreaterThan(50);
    expect(answer.body.total).toBe(full.length);
    expect(answer.body.events.map((e: { id: number }) => e.id)).toEqual(full.map((e) => e.id));
    const titles = answer.body.events.map((e: { title: string }) => e.title);
    expect(titles).toEqual(
      expect.arrayContaining(['Festival', 'Board meeting', 'Hidden setup', "Carla's draft"]),
    );
    expect(titles).not.toContain('July fair');
    // Field for field as the full record with context=edit gives them.
    for (const [index, compact] of answer.body.events.entries()) {
      const record = full[index] as Record<string, unknown>;
      for (const key of Object.keys(compact)) {
        if (key === 'categories' || key === 'venue' || key === 'organizer') continue;
        expect(compact[key], `${key} of ${String(record.title)}`).toEqual(record[key]);
      }
    }
    const concert = answer.body.events.find((e: { title: string }) => e.title === 'Christmas Concert');
    expect(concert).toMatchObject({
      cost: '15€ / 10€ reduced',
      venue: { venue: 'Sala Verdi', address: 'Via Roma 1', city: 'Parma' },
      organizer: [{ organizer: 'Coro San Marco' }],
      categories: [{ name: 'Concerts' }],
      start_date: '2030-06-10 19:00:00',
      utc_start_date: '2030-06-10 17:00:00',
    });
    // Only what the views show: no description, no addresses of links, no JSON-LD.
    expect(Object.keys(concert)).not.toContain('description');
    expect(Object.keys(concert)).not.toContain('rest_url');
    // An editor sees a protected event's details (as context=edit).
    const locked = answer.body.events.find((e: { title: string }) => e.title === 'Private rehearsal');
    expect(locked).toMatchObject({ cost: '5', venue: { venue: 'Sala Verdi' } });
  });

  it('answers signed-in callers only (the calendar screens are), with 401 for nobody', async () => {
    expectError(await calendar(RANGE), 401, 'rest_forbidden');
  });

  it('shows each caller what the events archive shows them: statuses by role, hidden events, protected events blanked', async () => {
    for (const [who, auth, params] of [
      ['a subscriber', subscriber, { ...RANGE }],
      ['a contributor', contributor, { ...RANGE, status: 'any' }],
      ['an author', author, { ...RANGE, status: 'any' }],
    ] as Array<[string, Auth, Record<string, string | boolean>]>) {
      const answer = await calendar(params, auth);
      const full = await archiveAll(params, auth);
      expect(answer.status, who).toBe(200);
      expect(
        answer.body.events.map((e: { id: number }) => e.id),
        who,
      ).toEqual(full.map((e) => e.id));
    }
    // Asking for what one may not see is refused as the archive refuses it.
    const refused = await calendar({ ...RANGE, show_hidden: true }, subscriber);
    expectError(refused, 400, 'rest_invalid_param');
    expect(Object.keys(refused.body.data.params)).toEqual(['show_hidden']);
    const anonymous = await calendar(RANGE, subscriber);
    const titles = anonymous.body.events.map((e: { title: string }) => e.title);
    expect(titles).not.toContain('Board meeting');
    expect(titles).not.toContain("Carla's draft");
    const contributors = await calendar({ ...RANGE, status: 'any' }, contributor);
    const seen = contributors.body.events.map((e: { title: string }) => e.title);
    expect(seen).toContain("Carla's draft");
    // Without the password its cost and venue are blanked, as in the archive.
    const locked = anonymous.body.events.find((e: { title: string }) => e.title === 'Private rehearsal');
    expect(locked).toMatchObject({ cost: '', venue: [], categories: [] });
    // The formatted cost to those who may not edit the event; the typed one to its author.
    const concert = anonymous.body.events.find((e: { title: string }) => e.title === 'Christmas Concert');
    expect(concert.cost).toBe('10€ – 15€');
    const talkToOthers = seen.includes("Arturo's talk")
      ? contributors.body.events.find((e: { title: string }) => e.title === "Arturo's talk")
      : null;
    expect(talkToOthers?.cost).toBe('$8');
    const authors = await calendar(RANGE, author);
    expect(authors.body.events.find((e: { title: string }) => e.title === "Arturo's talk").cost).toBe('8');
  });

  it('takes the filters of GET /events: categories, venue', async () => {
    const concerts = await calendar({ ...RANGE, categories: 'concerts' }, server.admin);
    expect(concerts.body.events.map((e: { title: string }) => e.title)).toEqual(['Christmas Concert']);
    const bad = await calendar({ ...RANGE, venue: 'nowhere' }, server.admin);
    expectError(bad, 400, 'rest_invalid_param');
  });

  it(`answers more than ${CALENDAR_LIST_MAX} events with a 400 that says so; a shorter range is listed`, async () => {
    // Three daily series of 700 (within the horizon of materialised occurrences): 2,100 events.
    const first = dayFromNow(3);
    for (const hour of [10, 12, 14]) {
      await createEvent(server, {
        title: `Daily bells ${hour}`,
        start_date: `${first} ${hour}:00:00`,
        end_date: `${first} ${hour}:10:00`,
        status: 'publish',
        recurrence: ['RRULE:FREQ=DAILY;COUNT=700'],
      });
    }
    const answer = await calendar(
      { ends_after: dayFromNow(2), starts_before: dayFromNow(3 + 800) },
      server.admin,
    );
    expectError(answer, 400, CALENDAR_TOO_MANY_CODE);
    expect(answer.body.message).toBe(
      `These dates hold 2100 events, more than the ${CALENDAR_LIST_MAX} a calendar view lists at once. ` +
        'Ask for fewer days, or filter by category, venue or organizer.',
    );
    expect(answer.body.data).toMatchObject({ total: 2100, max: CALENDAR_LIST_MAX });
    const tenDays = await calendar(
      { ends_after: dayFromNow(2), starts_before: dayFromNow(12) },
      server.admin,
    );
    expect(tenDays.status).toBe(200);
    expect(tenDays.body.total).toBe(30);
    expect(tenDays.body.events).toHaveLength(30);
  }, 120_000);
});
