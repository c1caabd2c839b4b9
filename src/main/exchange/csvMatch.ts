import type { CalendarStore } from '../store/store';
import type { StoredEvent, StoredOrganizer, StoredVenue } from '../store/schema';
import { toPlainText } from '../core/html';
import { nowUtc } from '../core/posts';
import { updateEvent, type EventWriteContext } from '../core/eventRecord';
import { applyOrganizerInput, applyVenueInput } from '../core/linkedPosts';
import { findSameLinkedPost, identityOf } from '../core/linkedPostMatch';
import { cellsOfRecord, rowInput, type CsvDates, type CsvInput } from './csv';
import { TimeSlices } from '../core/timeSlices';

/*
 * Re-importing a CSV updates instead of duplicating, as the original's importer does: an event row is the
 * event with the same title and start (all-day: the same day). Titles compare case-insensitively, as the site's
 * database does. A venue or organizer row is the same place or person by core/linkedPostMatch.ts: the same name
 * and address (organizers: email), case and accents aside.
 */

type Stored = StoredEvent | StoredVenue | StoredOrganizer;

/** What a row re-imports onto, and whether the row would change anything there. */
export interface CsvMatch<T extends Stored = Stored> {
  record: T;
  changed: boolean;
}

const sameText = (text: string) => toPlainText(text).trim().toLowerCase();
const startKey = (startLocal: string, allDay: boolean) => (allDay ? startLocal.slice(0, 10) : startLocal);

/**
 * For each row of a file, the record here it names (each record claimed by one row at most). Built once
 * before the import, from the records as they were: rows of the same file never match each other.
 */
export async function csvMatcher(store: CalendarStore, dates: CsvDates) {
  const live = <T extends Stored>(records: Iterable<T>) => [...records].filter((r) => r.status !== 'trash');
  const index = new Map<string, Stored[]>();
  const add = (key: string, record: Stored) => index.set(key, [...(index.get(key) ?? []), record]);
  // A calendar of 50,000 events takes seconds to index: a slice at a time, the server answering meanwhile.
  const slices = new TimeSlices();
  for (const event of live(store.events.values())) {
    add(`event\n${sameText(event.title)}\n${startKey(event.startLocal, event.allDay)}`, event);
    await slices.pause();
  }
  const places = live(store.venues.values()).map((venue) => ({ ...identityOf(venue), record: venue }));
  const people = live(store.organizers.values()).map((person) => ({ ...identityOf(person), record: person }));
  const claimed = new Set<number>();
  const unclaimed = <T extends { record: Stored }>(candidates: T[]) =>
    candidates.filter((candidate) => !claimed.has(candidate.record.id));

  /** The record a row names, unclaimed by an earlier row. */
  const recordOf = (row: CsvInput): Stored | undefined => {
    if (row.kind === 'venues') {
      const wanted = { kind: 'venue' as const, name: row.input.venue ?? '', detail: row.input.address ?? '' };
      return findSameLinkedPost(unclaimed(places), wanted)?.record;
    }
    if (row.kind === 'organizers') {
      const wanted = {
        kind: 'organizer' as const,
        name: row.input.organizer ?? '',
        detail: row.input.email ?? '',
      };
      return findSameLinkedPost(unclaimed(people), wanted)?.record;
    }
    const key = `event\n${sameText(row.input.title ?? '')}\n${startKey(String(row.input.start_date), row.input.all_day === true)}`;
    return index.get(key)?.find((candidate) => !claimed.has(candidate.id));
  };

  return (row: CsvInput): CsvMatch | undefined => {
    const record = recordOf(row);
    if (!record) return undefined;
    claimed.add(record.id);
    return { record, changed: changes(store, record, row, dates) };
  };
}

/**
 * Whether writing the row onto the record would change it: the record's own exported row, read back the same
 * way, differs in a value the row gives (a value the row leaves out is kept by the write).
 */
function changes(store: CalendarStore, record: Stored, row: CsvInput, dates: CsvDates): boolean {
  const current = rowInput(row.kind, cellsOfRecord(store, record), dates);
  if (!('input' in current)) return true;
  const now = current.input as Record<string, unknown>;
  return Object.entries(row.input).some(([key, value]) => JSON.stringify(now[key]) !== JSON.stringify(value));
}

/** What the import report says of a matched row. */
export interface ImportMatch {
  line: number;
  kind: 'event' | 'venue' | 'organizer';
  id: number;
  /** The title or name of the record matched. */
  name: string;
  /** False when the row said what the record already held: nothing was written. */
  changed: boolean;
}

/** Writes a matched row onto its record (nothing when it changes nothing), and says what it matched. */
export function writeCsvMatch(match: CsvMatch, row: CsvInput, context: EventWriteContext): ImportMatch {
  const { record } = match;
  if (match.changed) {
    const touched = { modifiedUtc: nowUtc(context.now), revision: record.revision + 1 };
    if (row.kind === 'events') updateEvent(record as StoredEvent, row.input, context);
    else if (row.kind === 'venues')
      context.tx.putVenue({ ...applyVenueInput(record as StoredVenue, row.input, context), ...touched });
    else
      context.tx.putOrganizer({
        ...applyOrganizerInput(record as StoredOrganizer, row.input, context),
        ...touched,
      });
  }
  const name = record.kind === 'event' ? record.title : record.name;
  return { line: row.line, kind: record.kind, id: record.id, name, changed: match.changed };
}
