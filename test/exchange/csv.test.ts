import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import type { CalendarStore } from '../../src/main/store/store';
import { freshStores } from '../sync/freshStores';
import {
  columnSlug,
  exportCsv,
  parseCsv,
  EVENT_COLUMNS,
  ORGANIZER_COLUMNS,
  VENUE_COLUMNS,
} from '../../src/main/exchange/csv';
import { importFile } from '../../src/main/exchange/importFile';
import { ImportError } from '../../src/main/exchange/errors';
import { folderOwner } from '../../src/main/core/users';
import type { EventInput } from '../../src/main/core/eventRecord';

// The importer's internal keys, as The Events Calendar 6.17's Column_Mapper.php lists them (the WordPress test
// drives the installed plugin itself).
const IMPORTER_KEYS = {
  events: [
    'event_name',
    'event_description',
    'event_excerpt',
    'event_start_date',
    'event_start_time',
    'event_end_date',
    'event_end_time',
    'event_timezone',
    'event_all_day',
    'event_hide',
    'event_sticky',
    'feature_event',
    'event_venue_name',
    'event_organizer_name',
    'event_show_map_link',
    'event_show_map',
    'event_cost',
    'event_currency_code',
    'event_currency_symbol',
    'event_currency_position',
    'event_category',
    'event_tags',
    'event_website',
    'featured_image',
    'event_comment_status',
    'event_ping_status',
  ],
  venues: [
    'venue_name',
    'venue_description',
    'venue_country',
    'venue_address',
    'venue_address2',
    'venue_city',
    'venue_state',
    'venue_zip',
    'venue_phone',
    'venue_url',
    'featured_image',
  ],
  organizers: [
    'organizer_name',
    'organizer_description',
    'organizer_email',
    'organizer_website',
    'organizer_phone',
    'featured_image',
  ],
};

const stores = freshStores();
afterEach(() => stores.closeAll());

describe('CSV headers for the original importer', () => {
  it("the import screen's slug of each header we write is the importer's key, for every key it has", () => {
    expect(EVENT_COLUMNS.map(columnSlug)).toEqual(IMPORTER_KEYS.events);
    expect(VENUE_COLUMNS.map(columnSlug)).toEqual(IMPORTER_KEYS.venues);
    expect(ORGANIZER_COLUMNS.map(columnSlug)).toEqual(IMPORTER_KEYS.organizers);
    // The screen's rule (aggregator-fields.js): lowercased, spaces to _, anything else dropped.
    expect(columnSlug(' Event Organizer Name(s) or ID(s) ')).toBe('event_organizer_names_or_ids');
    expect(columnSlug('Venue State/Province')).toBe('venue_stateprovince');
  });

  it("files with the importer's labels or the headers earlier versions wrote still read", () => {
    const now = new Date('2027-01-01T00:00:00Z');
    const events = parseCsv(
      [
        'Event Name,Event Start Date,Event Start Time,Event Time Zone,All Day Event,Hide From Event Listings,' +
          'Event Sticky in Month View,Feature Event,Event Organizer Name(s) or ID(s),Event ISO Currency Code,' +
          'Event Cost,Event Featured Image,Something else',
        'Gala,2027-03-01,20:00,Europe/Paris,FALSE,TRUE,yes,1,"Choir, 12",eur,10,https://example.org/a.png,x',
      ].join('\n'),
      { now },
    );
    expect(events.problems).toEqual([]);
    expect(events.inputs[0]!.input).toMatchObject({
      title: 'Gala',
      start_date: '2027-03-01 20:00:00',
      timezone: 'Europe/Paris',
      all_day: false,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      organizer: [{ organizer: 'Choir' }, 12],
      currency_code: 'EUR',
      image: 'https://example.org/a.png',
    } satisfies EventInput);
    const venues = parseCsv(
      'Venue Name,Venue Address,Venue Address 2,Venue State/Province,Venue Website\nHall,1 Main St,Floor 2,IL,https://h.example/\n',
      { now },
    );
    expect(venues.inputs[0]!.input).toMatchObject({
      venue: 'Hall',
      address: '1 Main St, Floor 2',
      stateprovince: 'IL',
      website: 'https://h.example/',
    });
  });
});

describe('CSV dates as people write them', () => {
  // A Wednesday, 10:00 in Berlin.
  const now = new Date('2027-03-03T09:00:00Z');
  const startOf = (day: string, time = '', options: { dayFirst?: boolean; zone?: string } = {}) => {
    const { inputs, problems } = parseCsv(
      `Event Name,Event Start Date,Event Start Time\nX,"${day}",${time}\n`,
      { now, zone: 'Europe/Berlin', ...options },
    );
    expect(problems).toEqual([]);
    return inputs[0]!.input as EventInput;
  };

  it('the absolute and relative forms of the API, in the calendar zone', () => {
    expect(startOf('2027-06-05', '19:30').start_date).toBe('2027-06-05 19:30:00');
    expect(startOf('June 5, 2027', '7:30 pm').start_date).toBe('2027-06-05 19:30:00');
    expect(startOf('5.6.2027', '19:30').start_date).toBe('2027-06-05 19:30:00');
    expect(startOf('tomorrow', '19:30').start_date).toBe('2027-03-04 19:30:00');
    expect(startOf('next friday', '18:00').start_date).toBe('2027-03-05 18:00:00');
    // A date with its own offset is that instant, on the calendar's wall clock.
    expect(startOf('2027-06-05T19:30:00+00:00').start_date).toBe('2027-06-05 21:30:00');
    // The end defaults to the start (the same day, the start time), as before.
    expect(startOf('2027-06-05', '19:30').end_date).toBe('2027-06-05 19:30:00');
  });

  it('05/06/2027 is 6 May (month first, as PHP reads it) unless day-first is asked for', () => {
    expect(startOf('05/06/2027', '19:30').start_date).toBe('2027-05-06 19:30:00');
    expect(startOf('05/06/2027', '19:30', { dayFirst: true }).start_date).toBe('2027-06-05 19:30:00');
    expect(startOf('5/6/27', '', { dayFirst: true }).start_date).toBe('2027-06-05 00:00:00');
    // Day-first only turns the ambiguous slash form: ISO stays ISO.
    expect(startOf('2027-05-06', '', { dayFirst: true }).start_date).toBe('2027-05-06 00:00:00');
  });

  it('a bad date or time is a problem naming its line and column, and nothing of the file is stored', async () => {
    const target = await stores.open();
    const csv = [
      'Event Name,Event Start Date,Event Start Time,Event End Date',
      'Fine,2027-01-01,10:00,',
      'Month 13,13/05/2027,10:00,',
      'Bad time,2027-01-03,25:99,',
      'Bad end,2027-01-03,10:00,someday',
      'Fine too,05/13/2027,10:00,',
    ].join('\n');
    const error = await importFile(target, 'dates.csv', csv, now, folderOwner(target)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 3, message: expect.stringMatching(/^Event Start Date: "13\/05\/2027" is not a date/) },
      { line: 4, message: expect.stringMatching(/^Event Start Time: "25:99" is not a time of day/) },
      { line: 5, message: expect.stringMatching(/^Event End Date: "someday" is not a date/) },
    ]);
    expect(target.events.size).toBe(0);
    // The same day-first file is fine: 13/05/2027 is 13 May.
    const fixed = csv.split('\n').filter((line) => !/^Bad/.test(line) && !/^Fine too/.test(line));
    const result = await importFile(target, 'dates.csv', fixed.join('\n'), now, folderOwner(target), {
      dayFirst: true,
    });
    expect(result.events).toBe(2);
    expect([...target.events.values()].map((event) => event.startLocal).sort()).toEqual([
      '2027-01-01 10:00:00',
      '2027-05-13 10:00:00',
    ]);
  });
});

describe('re-importing a CSV', () => {
  let source: TestServer;
  beforeAll(async () => {
    source = await startTestServer();
    const post = async (path: string, json: Record<string, unknown>) => {
      const answer = await source.api(path, { method: 'POST', auth: source.admin, json });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body as { id: number };
    };
    const hall = await post('venues', {
      venue: 'Town Hall',
      address: '1 Main Street',
      city: 'Springfield',
      stateprovince: 'IL',
      website: 'https://townhall.example.org/',
    });
    const board = await post('organizers', { organizer: 'Choir Board', email: 'board@example.org' });
    const friends = await post('organizers', { organizer: 'Friends of Music' });
    await post('events', {
      title: 'Concert',
      start_date: '2027-05-01 19:30:00',
      end_date: '2027-05-01 21:00:00',
      timezone: 'America/New_York',
      venue: hall.id,
      organizer: [board.id, friends.id],
      featured: true,
      sticky: true,
      categories: ['Concerts'],
      cost: '15',
    });
    await post('events', {
      title: 'Concert',
      start_date: '2027-05-08 19:30:00',
      end_date: '2027-05-08 21:00:00',
      timezone: 'America/New_York',
      hide_from_listings: true,
    });
    await post('events', { title: 'Fair', start_date: '2027-09-18', end_date: '2027-09-18', all_day: true });
  });
  afterAll(() => source.close());

  const snapshot = (store: CalendarStore) =>
    JSON.stringify({
      version: store.version,
      events: [...store.events.values()],
      venues: [...store.venues.values()],
      organizers: [...store.organizers.values()],
      terms: [...store.terms.values()],
    });
  const importAll = async (target: CalendarStore) => {
    const results = [];
    for (const kind of ['venues', 'organizers', 'events'] as const) {
      results.push(
        await importFile(
          target,
          `${kind}.csv`,
          exportCsv(source.engine.store, kind),
          new Date(),
          folderOwner(target),
        ),
      );
    }
    return results;
  };

  it('twice changes nothing: every row matches (title + start; venues and organizers by name) and is reported', async () => {
    const target = await stores.open();
    const first = await importAll(target);
    expect(first.map((result) => result.matched)).toEqual([[], [], []]);
    expect([target.events.size, target.venues.size, target.organizers.size]).toEqual([3, 1, 2]);
    const before = snapshot(target);
    for (let round = 0; round < 2; round++) {
      const again = await importAll(target);
      expect(snapshot(target)).toBe(before);
      expect(
        again.map((result) => result.matched!.map((match) => [match.kind, match.name, match.changed])),
      ).toEqual([
        [['venue', 'Town Hall', false]],
        [
          ['organizer', 'Choir Board', false],
          ['organizer', 'Friends of Music', false],
        ],
        [
          ['event', 'Concert', false],
          ['event', 'Concert', false],
          ['event', 'Fair', false],
        ],
      ]);
    }
  });

  it('a changed row updates its event (matched by title and start) instead of adding one', async () => {
    const target = await stores.open();
    await importAll(target);
    const rows: Record<string, string>[] = parse(exportCsv(source.engine.store, 'events'), { columns: true });
    const edited = rows.map((row) =>
      row['Event Start Date'] === '2027-05-08'
        ? { ...row, 'Event End Time': '22:15:00', 'Event Name': 'CONCERT' }
        : row,
    );
    const text = stringify(edited, { header: true, columns: EVENT_COLUMNS });
    const result = await importFile(target, 'events.csv', text, new Date(), folderOwner(target));
    expect(target.events.size).toBe(3);
    const changed = result.matched!.filter((match) => match.changed);
    expect(changed).toEqual([
      { line: expect.any(Number), kind: 'event', id: expect.any(Number), name: 'Concert', changed: true },
    ]);
    const updated = target.events.get(changed[0]!.id)!;
    expect([updated.title, updated.startLocal, updated.endLocal]).toEqual([
      'CONCERT',
      '2027-05-08 19:30:00',
      '2027-05-08 22:15:00',
    ]);

    // A shorter file (name and start only) matches too and keeps the flags and zone it does not mention; its
    // missing end is the start, as in the original's importer.
    const short = await importFile(
      target,
      'short.csv',
      'Event Name,Event Start Date,Event Start Time\nCONCERT,2027-05-08,19:30\n',
      new Date(),
      folderOwner(target),
    );
    expect(short.matched!.map((match) => [match.id, match.changed])).toEqual([[updated.id, true]]);
    const kept = target.events.get(updated.id)!;
    expect([kept.hideFromListings, kept.timezone, kept.endLocal]).toEqual([
      true,
      'America/New_York',
      '2027-05-08 19:30:00',
    ]);
  });
});
