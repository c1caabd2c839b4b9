import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import type { CalendarStore } from '../../src/main/store/store';
import type { StoredEvent } from '../../src/main/store/schema';
import { freshStores } from '../sync/freshStores';
import { exportIcs } from '../../src/main/exchange/ics';
import { importFile } from '../../src/main/exchange/importFile';
import { folderOwner } from '../../src/main/core/users';
import { parseWithPythonIcalendar } from '../helpers/icalendarPython';

/*
 * The iCalendar field mapping (issue 30 item 3, exchange/icsFields.ts): what the export writes, an independent
 * parser (Debian's python3-icalendar) reads, and an import into another Calendar Desk gives back.
 */

let source: TestServer;
const stores = freshStores();

const DESCRIPTION =
  '<p>Doors at <strong>7pm</strong>, tickets on <a href="https://example.org/t">our site</a>.</p><ul><li>Bring a friend; or two</li></ul>';

beforeEach(async () => {
  source = await startTestServer();
  const { api, admin } = source;
  const venue = await api('venues', {
    method: 'POST',
    auth: admin,
    json: { venue: 'Teatro Comunale', city: 'Bologna', geo_lat: 44.4949, geo_lng: 11.3426 },
  });
  expect(venue.status).toBe(201);
  const created = await api('events', {
    method: 'POST',
    auth: admin,
    json: {
      title: 'Opera night',
      description: DESCRIPTION,
      start_date: '2027-03-01 20:00:00',
      end_date: '2027-03-01 23:00:00',
      timezone: 'Europe/Rome',
      status: 'draft',
      venue: venue.body.id,
      organizer: [
        { organizer: 'Coro "San Luca"' },
        { organizer: 'Società Lirica', email: 'info@example.org' },
      ],
      cost: '25€, 20€ reduced',
      featured: true,
      sticky: true,
      hide_from_listings: true,
      show_map: false,
      show_map_link: false,
    },
  });
  expect(created.status).toBe(201);
  await api('events', {
    method: 'POST',
    auth: admin,
    json: { title: 'Plain', start_date: '2027-03-02 20:00:00', end_date: '2027-03-02 21:00:00' },
  });
});
afterEach(async () => {
  await source.close();
  await stores.closeAll();
});

const fieldsOf = (store: CalendarStore, event: StoredEvent) => ({
  title: event.title,
  description: event.description,
  status: event.status,
  venue: store.venues.get(event.venueId)?.name ?? null,
  geo: [store.venues.get(event.venueId)?.geoLat ?? null, store.venues.get(event.venueId)?.geoLng ?? null],
  organizers: event.organizerIds.map((id) => {
    const organizer = store.organizers.get(id)!;
    return { name: organizer.name, email: organizer.email };
  }),
  cost: event.cost,
  featured: event.featured,
  sticky: event.sticky,
  hideFromListings: event.hideFromListings,
  showMap: event.showMap,
  showMapLink: event.showMapLink,
});

const byTitle = (store: CalendarStore, title: string) =>
  [...store.events.values()].find((event) => event.title === title)!;

describe('iCalendar field mapping', () => {
  it('python3-icalendar reads the HTML description, GEO, ORGANIZER with CN, STATUS and our X- properties', async () => {
    const text = exportIcs(source.engine.store, new Date());
    const view = await parseWithPythonIcalendar(text);
    const opera = view.events.find((event) => event.summary === 'Opera night')!;
    expect(opera.description).toBe(
      'Doors at 7pm, tickets on our site (https://example.org/t).\n\n- Bring a friend; or two',
    );
    expect(opera.altDesc).toEqual({ fmttype: 'text/html', value: DESCRIPTION });
    expect(opera.geo).toEqual({ lat: 44.4949, lng: 11.3426 });
    // The first organizer with an e-mail (RFC 5545 allows one ORGANIZER); all of them in order beside it.
    expect(opera.organizer).toEqual({ cn: 'Società Lirica', value: 'mailto:info@example.org' });
    expect(opera.desk['X-CALENDAR-DESK-ORGANIZER']).toEqual([
      'Coro "San Luca"',
      'Società Lirica <mailto:info@example.org>',
    ]);
    expect(opera.status).toBe('TENTATIVE');
    expect(opera.desk).toMatchObject({
      'X-CALENDAR-DESK-STATUS': ['draft'],
      'X-CALENDAR-DESK-FEATURED': ['TRUE'],
      'X-CALENDAR-DESK-STICKY': ['TRUE'],
      'X-CALENDAR-DESK-HIDE-FROM-LISTINGS': ['TRUE'],
      'X-CALENDAR-DESK-SHOW-MAP': ['FALSE'],
      'X-CALENDAR-DESK-SHOW-MAP-LINK': ['FALSE'],
      'X-CALENDAR-DESK-COST': ['25€, 20€ reduced'],
    });
    const plain = view.events.find((event) => event.summary === 'Plain')!;
    expect(plain).toMatchObject({ status: 'CONFIRMED', geo: null, organizer: null, altDesc: null });
  });

  it('an export imported into another Calendar Desk keeps every mapped field', async () => {
    const text = exportIcs(source.engine.store, new Date());
    const target = await stores.open();
    await importFile(target, 'calendar.ics', text, new Date(), folderOwner(target));
    for (const title of ['Opera night', 'Plain']) {
      const before = fieldsOf(source.engine.store, byTitle(source.engine.store, title));
      expect(fieldsOf(target, byTitle(target, title))).toEqual(before);
    }
    expect(fieldsOf(target, byTitle(target, 'Opera night'))).toMatchObject({
      status: 'draft',
      organizers: [
        { name: 'Coro "San Luca"', email: '' },
        { name: 'Società Lirica', email: 'info@example.org' },
      ],
      featured: true,
      showMap: false,
      geo: [44.4949, 11.3426],
    });
    // Importing the same file again matches the same organizers and venue (by name) instead of adding more.
    await importFile(target, 'calendar.ics', text, new Date(), folderOwner(target));
    expect([...target.organizers.values()]).toHaveLength(2);
    expect([...target.venues.values()]).toHaveLength(1);
  });

  it('a STATUS a calendar app changed wins; another calendar’s STATUS alone sets nothing', async () => {
    const text = exportIcs(source.engine.store, new Date());
    const target = await stores.open();
    const confirmed = text.replace('STATUS:TENTATIVE', 'STATUS:CONFIRMED');
    await importFile(target, 'calendar.ics', confirmed, new Date(), folderOwner(target));
    expect(byTitle(target, 'Opera night').status).toBe('publish');

    const foreign = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Other//EN',
      'BEGIN:VEVENT',
      'UID:other-1@example.com',
      'DTSTAMP:20270101T000000Z',
      'DTSTART:20270401T180000Z',
      'DTEND:20270401T190000Z',
      'SUMMARY:Foreign',
      'STATUS:TENTATIVE',
      'DESCRIPTION:plain text',
      'X-ALT-DESC;FMTTYPE=text/html:<p onclick="x()">Hi <script>alert(1)</script><b>there</b></p>',
      'ORGANIZER;CN=Ann:mailto:ann@example.com',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const other = await stores.open();
    await importFile(other, 'other.ics', foreign, new Date(), folderOwner(other));
    const event = byTitle(other, 'Foreign');
    expect(event.status).toBe('publish');
    // X-ALT-DESC is read as the description, sanitized as every description is.
    expect(event.description).toBe('<p>Hi <b>there</b></p>');
    expect(fieldsOf(other, event).organizers).toEqual([{ name: 'Ann', email: 'ann@example.com' }]);
  });

  it('a yes/no property that is neither TRUE nor FALSE is refused with its line', async () => {
    const text = exportIcs(source.engine.store, new Date()).replace(
      'X-CALENDAR-DESK-FEATURED:TRUE',
      'X-CALENDAR-DESK-FEATURED:maybe',
    );
    const target = await stores.open();
    await expect(importFile(target, 'calendar.ics', text, new Date(), folderOwner(target))).rejects.toThrow(
      /X-CALENDAR-DESK-FEATURED: write TRUE or FALSE/,
    );
  });
});
