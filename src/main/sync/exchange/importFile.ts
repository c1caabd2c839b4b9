import { extname } from 'node:path';
import type { CalendarStore } from '../../store/store';
import type { Caller } from '../../core/capabilities';
import { createEvent, type EventIdentity, type EventInput, type EventWriteContext } from '../../core/events';
import {
  changeInSeries,
  guardedTransaction,
  inSeries,
  seriesHeadOf,
  seriesOccurrences,
} from '../../core/recurrence/series';
import { shiftLocal, wallMs } from '../../core/recurrence/ruleEdits';
import { ImportChanges, NothingChanged } from './importChanges';
import { SourceFollow } from './sourceEvents';
import type { StoredEvent } from '../../store/schema';
import { createOrganizer, createVenue } from '../../core/linkedPosts';
import { ImportError, type ImportProblem } from './errors';
import { importDump, parseDump } from './jsonDump';
import { icsUidOf, identityOfIcsUid } from './ics';
import { parseIcs, type IcsEvent } from './icsImport';
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
  /** `.ics` events already here (by UID; a series' changed dates by RECURRENCE-ID too), updated by the file. */
  matchedByUid?: number;
  /** Of the events matched by UID, those the file left as they were. */
  unchangedByUid?: number;
  /** CSV: the rows that named a record already here (re-import), updated instead of duplicated. */
  matched?: ImportMatch[];
  /** A refresh of an import address: its events that left it, moved to the trash here. */
  trashed?: Array<{ id: number; title: string; uid: string }>;
  /** A refresh of an import address: its VEVENTs not imported, and why (in the trash here, no UID…). */
  skipped?: Array<{ line: number; title: string; reason: string }>;
}

export interface ImportOptions {
  /** CSV: `05/06/2026` is 5 June (day/month/year); without it, 6 May (month first, as PHP's strtotime). */
  dayFirst?: boolean;
  /**
   * A refresh of the import address of this id (see sourceRefresh.ts): what it brought that left it goes to
   * the trash in the same store change, and what the volunteer trashed here stays there.
   */
  sourceId?: string;
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
            inputs: events.map((event) => ({ kind: 'events' as const, ...event })),
            problems,
          };
        })()
      : parseCsv(text, dates);
  if (parsed.problems.length > 0) throw new ImportError(file, parsed.problems);
  if (parsed.inputs.length === 0)
    throw new ImportError(file, [{ line: 0, message: 'the file holds no records' }]);
  const counts = { events: 0, venues: 0, organizers: 0, matchedByUid: 0, unchangedByUid: 0 };
  // CSV rows are matched against the records as they were before the import (title + start, as the original).
  const matchCsv = format === 'csv' ? csvMatcher(store, dates) : undefined;
  const matched: ImportMatch[] = [];
  const trashed: NonNullable<ImportResult['trashed']> = [];
  const skipped: NonNullable<ImportResult['skipped']> = [];
  let follow: SourceFollow | undefined;
  try {
    await store.mutate((tx) => {
      const changes = new ImportChanges(store);
      const context = changes.watch({ tx, store, caller, now, language: 'en' as const });
      const problems: ImportProblem[] = [];
      const known = format === 'ics' ? eventsByIcsUid(store) : new Map<string, StoredEvent>();
      const claimed = new Set<string>();
      // Read inside the change: two refreshes of one address cannot both start from the same state.
      follow = options.sourceId && format === 'ics' ? new SourceFollow(store, options.sourceId) : undefined;
      for (const row of parsed.inputs as Array<CsvInput | (IcsEvent & { kind: 'events' })>) {
        changes.startEntry();
        try {
          const match = 'overrides' in row ? undefined : matchCsv?.(row);
          if (match) matched.push(writeCsvMatch(match, row, context));
          else if (row.kind === 'events' && 'overrides' in row) {
            // The UID names the event: the one already here is updated (re-importing a file duplicates
            // nothing). A UID repeated in the file on VEVENTs without RECURRENCE-ID makes separate events.
            const uid = row.uid && !claimed.has(row.uid) ? row.uid : '';
            const identity = identityOfIcsUid(uid);
            const existing = known.get(identity.icsUid ?? identity.uid ?? '');
            const skip = follow?.skipReason(uid, existing, claimed.has(row.uid));
            if (uid) claimed.add(uid);
            if (skip) {
              skipped.push({ line: row.line, title: String(row.input.title ?? ''), reason: skip });
              continue;
            }
            const input = follow ? follow.inputFor(uid, existing, row.input, context) : row.input;
            importIcsEvent({ ...row, input }, existing, identity, context, problems);
            if (existing) {
              counts.matchedByUid++;
              if (!changes.entryChanged()) counts.unchangedByUid++;
            }
          } else if (row.kind === 'events') createEvent(row.input as EventInput, context);
          else if (row.kind === 'venues') createVenue(row.input, context);
          else createOrganizer(row.input, context);
          counts[row.kind]++;
        } catch (error) {
          const field = (error as { field?: string }).field;
          problems.push({
            line: row.line,
            message: `${field ? `${field}: ` : ''}${(error as Error).message}`,
          });
        }
      }
      // Throwing inside the change takes every row of it back out: nothing is half-imported.
      if (problems.length > 0) throw new ImportError(file, problems);
      if (follow) {
        for (const { uid, event } of follow.trashWhatLeft(context, known))
          trashed.push({ id: event.id, title: event.title, uid });
        if (follow.changed) follow.save(context);
      }
      changes.finish(tx);
    });
  } catch (error) {
    // Every record already as the file has it: nothing was written.
    if (!(error instanceof NothingChanged)) throw error;
    // An address whose events were all here already (imported from a file before): what it brought is noted.
    const following = follow;
    if (following?.changed) await store.mutate((tx) => following.save({ tx }));
  }
  const records = counts.events + counts.venues + counts.organizers;
  return {
    format,
    ...counts,
    records,
    ...(format === 'csv' ? { matched } : {}),
    ...(follow ? { trashed, skipped } : {}),
  };
}

/**
 * One VEVENT (with its changed dates, for a series) into the calendar: the event of its UID here is updated,
 * else it is created. A series' changed dates are changes of the matching occurrence alone (scope `this`).
 */
function importIcsEvent(
  row: IcsEvent,
  existing: StoredEvent | undefined,
  identity: EventIdentity,
  context: EventWriteContext,
  problems: ImportProblem[],
): void {
  const { store } = context;
  // The file is the truth about repeating: a VEVENT without rules makes a series here a single event again.
  const input: EventInput =
    existing && inSeries(existing) && !row.input.recurrence ? { ...row.input, recurrence: [] } : row.input;
  // Changes go through the API's series writes, with their checks (the importer may change each event).
  const changing = guardedTransaction(context, 'edit');
  const event = existing
    ? changeInSeries(existing, seriesEditOf(existing, input), 'all', changing)
    : createEvent(input, context, identity);
  const head = seriesHeadOf(store, store.events.get(event.id)!);
  for (const override of row.overrides) {
    const occurrence =
      head &&
      [head, ...seriesOccurrences(store, head)].find((one) => one.recurrenceId === override.recurrenceId);
    if (!occurrence || occurrence.status === 'trash') {
      problems.push({
        line: override.line,
        message:
          `the date ${override.recurrenceId} of this repeating event is not among the events Calendar Desk has ` +
          'created for it (it creates them up to the horizon in Settings, 24 months ahead by default): ' +
          'lengthen the horizon, or remove this VEVENT.',
      });
      continue;
    }
    changeInSeries(occurrence, override.input, 'this', changing);
  }
}

/**
 * The series fields of a VEVENT as an edit of the series here (scope `all` from its head). The head may have
 * been changed on its own (moved): its dates are given as the file's move of the series moves them, so the
 * series moves by what the file changed, not by the head's own change.
 */
function seriesEditOf(existing: StoredEvent, input: EventInput): EventInput {
  if (!inSeries(existing) || existing.startLocal === existing.recurrenceId || !input.recurrence?.length)
    return input;
  const start = String(input.start_date);
  const startLocal = shiftLocal(existing.startLocal, wallMs(start) - wallMs(existing.recurrenceId!));
  return {
    ...input,
    start_date: startLocal,
    end_date: shiftLocal(startLocal, wallMs(String(input.end_date)) - wallMs(start)),
  };
}

/** The events here by the `.ics` UID an export writes for them (see `icsUidOf`). */
function eventsByIcsUid(store: CalendarStore): Map<string, StoredEvent> {
  const byUid = new Map<string, StoredEvent>();
  // An occurrence of a series is known by its series' UID and its original start, not by its own uid.
  for (const event of store.events.values()) if (event.parentId === 0) byUid.set(icsUidOf(event), event);
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
