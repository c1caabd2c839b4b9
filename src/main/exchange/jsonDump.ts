import { z } from 'zod';
import type { CalendarStore, Transaction } from '../store/store';
import { dataFileSchema, type DataFile } from '../store/schema';
import { ImportError, type ImportProblem } from './errors';
import { REMOTES_KEY, remotesWithoutSecrets } from '../sync/remotes';
import { UID_COLLECTIONS, withUids } from '../store/migrations';
import { parseRecurrenceLines } from '../core/recurrence/lines';

export const DUMP_FORMAT = 'calendar-desk-dump';

/**
 * A full dump: everything the data file holds except secrets (application passwords, tokens, saved remote
 * passwords), journal state and the change feed (this calendar's own history of changes).
 */
export const dumpSchema = z.object({
  format: z.literal(DUMP_FORMAT),
  version: z.literal(1),
  exportedUtc: z.string(),
  data: dataFileSchema.omit({ schemaVersion: true, journalSeq: true, tokens: true, changeFeed: true }),
});
export type Dump = z.infer<typeof dumpSchema>;

/** The calendar as a JSON dump that {@link applyDump} restores exactly (ids, sync links, users without secrets). */
export function exportDump(store: CalendarStore, now: Date): Dump {
  const {
    schemaVersion: _version,
    journalSeq: _seq,
    tokens: _tokens,
    changeFeed: _feed,
    ...data
  } = store.snapshot();
  return {
    format: DUMP_FORMAT,
    version: 1,
    exportedUtc: now.toISOString(),
    data: {
      ...data,
      users: data.users.map((user) => ({ ...user, appPasswords: [] })),
      syncLinks:
        REMOTES_KEY in data.syncLinks
          ? { ...data.syncLinks, [REMOTES_KEY]: remotesWithoutSecrets(data.syncLinks[REMOTES_KEY]) }
          : data.syncLinks,
    },
  };
}

/** Line of a JSON path in pretty-printed text (good enough for error messages: the first line naming the key). */
function lineOfIssue(text: string, path: PropertyKey[]): number {
  const lines = text.split('\n');
  const key = [...path].reverse().find((part) => typeof part === 'string');
  if (!key) return 0;
  const index = lines.findIndex((line) => line.includes(`"${String(key)}"`));
  return index + 1;
}

/**
 * A dump written before records had a uid gets them as an upgraded data file does (each record once, at this
 * restore); a dump's own uids are kept exactly.
 */
function withDumpUids(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || !('data' in raw)) return raw;
  const data = raw.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return raw;
  return { ...raw, data: { ...data, ...withUids(data as Record<string, unknown>) } };
}

/** Reads and checks a dump; every problem is reported before anything changes. */
export function parseDump(text: string, file: string): Dump {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    const line = position ? text.slice(0, Number(position)).split('\n').length : 0;
    throw new ImportError(file, [{ line, message: `not valid JSON (${(error as Error).message})` }]);
  }
  const parsed = dumpSchema.safeParse(withDumpUids(raw));
  if (!parsed.success) {
    const problems: ImportProblem[] = parsed.error.issues.map((issue) => ({
      line: lineOfIssue(text, issue.path),
      message: `${issue.path.join('.') || '(top level)'}: ${issue.message}`,
    }));
    throw new ImportError(file, problems);
  }
  const problems = [...repeatedUids(parsed.data.data, text), ...seriesProblems(parsed.data.data, text)];
  if (problems.length > 0) throw new ImportError(file, problems);
  return parsed.data;
}

/** The line of the first mention of a record's uid (good enough for messages, as lineOfIssue). */
function lineOfUid(text: string, uid: string, mention = 0): number {
  let at = -1;
  for (let seen = 0; seen <= mention; seen++) at = text.indexOf(uid, at + 1);
  return at < 0 ? 0 : text.slice(0, at).split('\n').length;
}

/**
 * Series as the calendar keeps them (issue 13): `recurrence` lines the API would accept, on the head of a
 * series only (`parentId` 0, with its `recurrenceId`), and each occurrence under an event of the dump. A dump
 * edited by hand that breaks this is refused, rather than restored into series no edit could change.
 */
function seriesProblems(data: Dump['data'], text: string): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const ids = new Set(data.events.map((event) => event.id));
  for (const event of data.events) {
    const where = (message: string) =>
      problems.push({ line: lineOfUid(text, event.uid), message: `events id ${event.id}: ${message}` });
    if (event.recurrence !== undefined) {
      const checked = parseRecurrenceLines(event.recurrence);
      if (!checked.ok) where(`recurrence: ${checked.message}`);
      if (event.parentId !== 0 || event.recurrenceId === undefined)
        where('recurrence is kept on the first event of a series only (parentId 0, with its recurrenceId).');
    } else if (event.recurrenceId !== undefined && event.parentId !== 0 && !ids.has(event.parentId)) {
      where(`an occurrence of a series whose first event (id ${event.parentId}) is not in the dump.`);
    }
  }
  return problems;
}

/** A uid names one record (CONTRACT §2): a dump (edited by hand, say) that gives two records the same one is refused. */
function repeatedUids(data: Dump['data'], text: string): ImportProblem[] {
  const seen = new Map<string, string>();
  const problems: ImportProblem[] = [];
  for (const name of UID_COLLECTIONS) {
    for (const record of data[name]) {
      const where = `${name} id ${record.id}`;
      const first = seen.get(record.uid);
      if (first) {
        // The line of its second mention, good enough for the message (as lineOfIssue).
        const line = lineOfUid(text, record.uid, 1);
        problems.push({ line, message: `${where}: uid ${record.uid} is already the uid of ${first}` });
      } else seen.set(record.uid, where);
    }
  }
  return problems;
}

/**
 * A dump restores a whole calendar: into a calendar that holds no records yet (a fresh data folder) only.
 */
export function checkDumpTarget(store: CalendarStore, file: string): void {
  const occupied = store.events.size + store.venues.size + store.organizers.size + store.terms.size;
  if (occupied > 0) {
    throw new ImportError(file, [
      {
        line: 0,
        message:
          `a JSON dump restores a whole calendar, and this data folder already holds ${occupied} record(s). ` +
          'Import it into a new data folder (--data NEW_FOLDER).',
      },
    ]);
  }
}

/**
 * Restores a checked dump ({@link checkDumpTarget}) inside a store change: the same ids, settings and sync
 * links. Users keep the secrets they already have here (a dump has none).
 */
export function applyDump(tx: Transaction, store: CalendarStore, dump: Dump): void {
  const data: Omit<DataFile, 'schemaVersion' | 'journalSeq' | 'tokens' | 'changeFeed'> = dump.data;
  tx.raiseCounters(data.counters);
  tx.setSettings(data.settings);
  for (const term of data.terms) tx.putTerm(term);
  for (const media of data.media) tx.putMedia(media);
  for (const venue of data.venues) tx.putVenue(venue);
  for (const organizer of data.organizers) tx.putOrganizer(organizer);
  for (const event of data.events) tx.putEvent(event);
  for (const user of data.users) {
    const existing = store.users.get(user.id);
    tx.putUser({ ...user, appPasswords: existing?.appPasswords ?? [] });
  }
  for (const [key, value] of Object.entries(data.syncLinks)) tx.setSyncState(key, value);
}

/** The records a dump restores: terms, venues, organizers and events. */
export const dumpRecordCount = ({ data }: Dump) =>
  data.events.length + data.venues.length + data.organizers.length + data.terms.length;
