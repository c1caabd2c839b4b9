import { extname } from 'node:path';
import type { CalendarStore } from '../../store/store';
import type { Caller } from '../../core/capabilities';
import { createEvent, updateEvent, type EventInput } from '../../core/events';
import type { StoredEvent } from '../../store/schema';
import { createOrganizer, createVenue } from '../../core/linkedPosts';
import { ImportError, type ImportProblem } from './errors';
import { importDump, parseDump } from './jsonDump';
import { icsUidOf, identityOfIcsUid, parseIcs } from './ics';
import { csvDates, parseCsv, type CsvInput } from './csv';
import { csvMatcher, writeCsvMatch, type ImportMatch } from './csvMatch';

export type ImportFormat = 'json' | 'ics' | 'csv';

export interface ImportResult {
  format: ImportFormat;
  events: number;
  venues: number;
  organizers: number;
  /** Records of every kind a JSON dump restored. */
  records: number;
  /** CSV: the rows that named a record already here (re-import), updated instead of duplicated. */
  matched?: ImportMatch[];
}

export interface ImportOptions {
  /** CSV: `05/06/2026` is 5 June (day/month/year); without it, 6 May (month first, as PHP's strtotime). */
  dayFirst?: boolean;
}

/** The format of a file: by its extension, else by its first bytes. */
export function formatOf(file: string, text: string): ImportFormat {
  const extension = extname(file).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.ics' || extension === '.ical') return 'ics';
  if (extension === '.csv') return 'csv';
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{')) return 'json';
  if (start.toUpperCase().startsWith('BEGIN:VCALENDAR')) return 'ics';
  return 'csv';
}

/**
 * Imports a JSON dump, an .ics or a CSV file. Everything is checked first and applied as one store change:
 * either every record is imported, or none is and the error lists each problem with its line.
 */
export async function importFile(
  store: CalendarStore,
  file: string,
  text: string,
  now: Date,
  /** Who imports: the records are written as this user, under the rules of the API's writes. */
  caller: Caller,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const format = formatOf(file, text);
  const dates = csvDates({ dayFirst: options.dayFirst, now, zone: store.settings.timezone });
  if (format === 'json') {
    const { records } = await importDump(store, parseDump(text, file), file);
    return { format, records, ...countsOf(store) };
  }
  const parsed =
    format === 'ics'
      ? (() => {
          const { events, problems } = parseIcs(text);
          return {
            inputs: events.map((event) => ({
              kind: 'events' as const,
              line: event.line,
              input: event.input,
              uid: event.uid,
            })),
            problems,
          };
        })()
      : parseCsv(text, dates);
  if (parsed.problems.length > 0) throw new ImportError(file, parsed.problems);
  if (parsed.inputs.length === 0)
    throw new ImportError(file, [{ line: 0, message: 'the file holds no records' }]);
  const counts = { events: 0, venues: 0, organizers: 0 };
  // CSV rows are matched against the records as they were before the import (title + start, as the original).
  const matchCsv = format === 'csv' ? csvMatcher(store, dates) : undefined;
  const matched: ImportMatch[] = [];
  await store.mutate((tx) => {
    const context = { tx, store, caller, now, language: 'en' as const };
    const problems: ImportProblem[] = [];
    const known = format === 'ics' ? eventsByIcsUid(store) : new Map<string, StoredEvent>();
    const claimed = new Set<string>();
    for (const row of parsed.inputs as Array<CsvInput & { uid?: string }>) {
      try {
        const match = matchCsv?.(row);
        if (match) matched.push(writeCsvMatch(match, row, context));
        else if (row.kind === 'events') {
          // The UID names the event: the one already here is updated (re-importing a file duplicates
          // nothing). A UID repeated in the file (an override of a repeating event) makes a separate event.
          const uid = row.uid && !claimed.has(row.uid) ? row.uid : '';
          if (uid) claimed.add(uid);
          const identity = identityOfIcsUid(uid);
          const existing = known.get(identity.icsUid ?? identity.uid ?? '');
          if (existing) updateEvent(existing, row.input as EventInput, context);
          else createEvent(row.input as EventInput, context, identity);
        } else if (row.kind === 'venues') createVenue(row.input, context);
        else createOrganizer(row.input, context);
        counts[row.kind]++;
      } catch (error) {
        const field = (error as { field?: string }).field;
        problems.push({ line: row.line, message: `${field ? `${field}: ` : ''}${(error as Error).message}` });
      }
    }
    // Throwing inside the change takes every row of it back out: nothing is half-imported.
    if (problems.length > 0) throw new ImportError(file, problems);
  });
  const records = counts.events + counts.venues + counts.organizers;
  return { format, ...counts, records, ...(format === 'csv' ? { matched } : {}) };
}

/** The events here by the `.ics` UID an export writes for them (see `icsUidOf`). */
function eventsByIcsUid(store: CalendarStore): Map<string, StoredEvent> {
  const byUid = new Map<string, StoredEvent>();
  for (const event of store.events.values()) byUid.set(icsUidOf(event), event);
  return byUid;
}

function countsOf(store: CalendarStore) {
  const live = <T extends { status: string }>(records: Iterable<T>) =>
    [...records].filter((r) => r.status !== 'trash').length;
  return {
    events: live(store.events.values()),
    venues: live(store.venues.values()),
    organizers: live(store.organizers.values()),
  };
}
