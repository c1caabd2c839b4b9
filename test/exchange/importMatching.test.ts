import { afterEach, describe, expect, it } from 'vitest';
import { freshStores } from '../sync/freshStores';
import { importFile } from '../../src/main/exchange/importFile';
import { folderOwner } from '../../src/main/core/users';
import { ORGANIZER_COLUMNS, VENUE_COLUMNS } from '../../src/main/exchange/csv';

// Re-importing venues and organizers updates the ones already here, recognised case- and accent-insensitively by
// name and address (organizers: name and email), in CSV and .ics files alike (issue 15 item 3).

const stores = freshStores();
afterEach(() => stores.closeAll());

const now = new Date('2026-09-01T10:00:00Z');
const row = (columns: string[], cells: Record<string, string>) =>
  columns.map((column) => JSON.stringify(cells[column] ?? '')).join(',');
const csv = (columns: string[], rows: Array<Record<string, string>>) =>
  [columns.join(','), ...rows.map((cells) => row(columns, cells))].join('\n');

describe('matching venues and organizers on import', () => {
  it('a CSV venue spelled differently is the venue already here; one at another address is new', async () => {
    const store = await stores.open();
    const owner = folderOwner(store);
    const first = csv(VENUE_COLUMNS, [{ 'Venue Name': 'Teatro Comunale', 'Venue Address': 'Via Roma 1' }]);
    await importFile(store, 'venues.csv', first, now, owner);
    expect(store.venues.size).toBe(1);
    const again = csv(VENUE_COLUMNS, [
      { 'Venue Name': 'TEATRO COMÙNALE', 'Venue Address': 'via roma 1', 'Venue City': 'Bologna' },
      { 'Venue Name': 'Teatro Comunale', 'Venue Address': 'Corso Martiri 5', 'Venue City': 'Ferrara' },
    ]);
    const result = await importFile(store, 'venues.csv', again, now, owner);
    const venues = [...store.venues.values()];
    expect(venues.map((venue) => [venue.name, venue.address, venue.city])).toEqual([
      // The file's spelling, as any value a re-imported row gives.
      ['TEATRO COMÙNALE', 'via roma 1', 'Bologna'],
      ['Teatro Comunale', 'Corso Martiri 5', 'Ferrara'],
    ]);
    expect(result.matched).toMatchObject([
      { line: 2, kind: 'venue', name: 'Teatro Comunale', changed: true },
    ]);
  });

  it('a CSV organizer is recognised by name and email, whatever their case and accents', async () => {
    const store = await stores.open();
    const owner = folderOwner(store);
    const people = (name: string, email: string) =>
      csv(ORGANIZER_COLUMNS, [{ 'Organizer Name': name, 'Organizer Email': email }]);
    await importFile(store, 'organizers.csv', people('Niccolò Rossi', 'nico@example.org'), now, owner);
    await importFile(store, 'organizers.csv', people('NICCOLO ROSSI', 'Nico@Example.org'), now, owner);
    expect(store.organizers.size).toBe(1);
    await importFile(store, 'organizers.csv', people('Niccolò Rossi', 'other@example.org'), now, owner);
    expect(store.organizers.size).toBe(2);
  });

  it("an .ics event's LOCATION finds the venue already here, case and accents aside", async () => {
    const store = await stores.open();
    const owner = folderOwner(store);
    await importFile(
      store,
      'venues.csv',
      csv(VENUE_COLUMNS, [{ 'Venue Name': 'Teatro Comunale', 'Venue Address': 'Via Roma 1' }]),
      now,
      owner,
    );
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//EN',
      'BEGIN:VEVENT',
      'UID:concert-1@example.org',
      'DTSTAMP:20260901T000000Z',
      'DTSTART:20261001T190000Z',
      'DTEND:20261001T210000Z',
      'SUMMARY:Concert',
      'LOCATION:TEATRO COMÙNALE\\, Via Roma 1',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    await importFile(store, 'concert.ics', ics, now, owner);
    expect(store.venues.size).toBe(1);
    const [event] = [...store.events.values()];
    expect(event!.venueId).toBe([...store.venues.values()][0]!.id);
  });
});
