import { setImmediate as nextTurn } from 'node:timers/promises';
import { basename, extname } from 'node:path';
import { StorageUnavailableError, type CalendarStore, type Transaction } from '../store/store';
import { PartlySavedError } from '../store/storageRefusal';
import type { Caller } from '../core/capabilities';
import { createEvent } from '../core/events';
import { type EventIdentity, type EventInput, type EventWriteContext } from '../core/eventRecord';
import {
  changeInSeries,
  changingInSeries,
  guardedSeriesWrite,
  guardedTransaction,
  horizonOf,
  inSeries,
  isUnmadeSeriesDate,
  materialiseSeries,
  seriesHeadOf,
  seriesOccurrences,
} from '../core/recurrence/series';
import { shiftLocal, wallMs } from '../core/recurrence/ruleEdits';
import { ImportChanges, NothingChanged } from './importChanges';
import { leavingCount, SourceFollow } from './sourceEvents';
import type { StoredEvent } from '../store/schema';
import { createOrganizer, createVenue } from '../core/linkedPosts';
import { ImportError, type ImportProblem } from './errors';
import { applyDump, checkDumpTarget, dumpRecordCount, parseDump } from './jsonDump';
import { digestOf, importHistoryOf, type WrittenRecord } from './importHistory';
import { SLICE_MS } from '../core/timeSlices';
import { nowUtc } from '../core/posts';
import type { ImportRow } from '../../shared/schemas/imports';
import { icsUidOf, identityOfIcsUid } from './ics';
import { parseIcs, type IcsEvent } from './icsImport';
import { checkOccurrenceBudget } from './importBudget';
import { csvDates, readCsv, type CsvDates, type CsvInput } from './csv';
import { csvMatcher, writeCsvMatch, type CsvMatch, type ImportMatch } from './csvMatch';
import { textOf } from '../core/values';

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
  /** Each entry of the file and what became (or, previewed, would become) of it. */
  rows: ImportRow[];
  /** The id to undo the import by, when it wrote something (see importHistory.ts). */
  import_id?: string;
  /** A preview: nothing was written. */
  dry_run?: true;
}

export interface ImportOptions {
  /** CSV: `05/06/2026` is 5 June (day/month/year); without it, 6 May (month first, as PHP's strtotime). */
  dayFirst?: boolean;
  /** Run the whole import and take it back: the answer says what it would do, nothing is written. */
  dryRun?: boolean;
  /** Called after each entry of the file (`done` of `total`), for a progress bar. */
  onEntry?: (done: number, total: number) => void;
  /**
   * The import address the file came from (the history shows it): a refresh of it (see sourceRefresh.ts), where
   * what it brought that left it goes to the trash in the same store change, and what the volunteer trashed
   * here stays there.
   */
  sourceId?: string;
  /** The file's format, when its name does not tell it (an import address: always .ics). */
  format?: ImportFormat;
}

/** An entry of the file (a row, a VEVENT, one changed date of it) and the records its write touched. */
interface Entry {
  line: number;
  title: string;
  keys: Set<string>;
  /** What the row should say besides its action. */
  notes: string[];
}

/** Why a refresh moved an event to the trash (its `trash` row). */
const LEFT_THE_ADDRESS = 'no longer at the address: moved to the trash (restore it from there if need be)';

/** Above this many events (at most) an import is applied in slices (see applyInSlices). */
const SLICED_ABOVE = 2_000;

/** Thrown at the end of a preview's store change to take every write of it back. */
class PreviewTakenBack extends Error {}

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
 * Imports a JSON dump, an .ics or a CSV file. Everything is checked first and applied as one store change (a
 * large file as several, see applyInSlices): either every record is imported, or none is and the error lists
 * each problem with its line. A preview (`dryRun`) runs the very same change and takes it back, so it says
 * exactly what the import then does.
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
  const format = options.format ?? formatOf(file, text);
  if (format === 'json') return importDumpFile(store, file, text, now, caller, options);
  const dates = csvDates({ dayFirst: options.dayFirst, now, zone: store.settings.timezone });
  const inputs = await readEntries(file, text, format, dates);
  // CSV rows are matched against the records as they were before the import (title + start, as the original).
  const matchCsv = format === 'csv' ? await csvMatcher(store, dates) : undefined;
  const run = new FileImport(store, file, now, caller, options, format, inputs, matchCsv);
  // Counted before anything is made: a file of many long series is refused at once (issue 26).
  const occurrences =
    format === 'ics' ? await checkOccurrenceBudget(store, file, inputs.filter(isIcsRow), now) : undefined;
  // A large import is applied a slice of rows per store change, so that the server keeps answering meanwhile
  // (issue 26): still one import in the history, undone as one. A preview's slices are each taken back.
  const sliced = (occurrences ?? run.total) + run.leaving() > SLICED_ABOVE;
  // Counting what leaves reads every event (~15 ms at 50,000), as does the first slice: a turn each.
  if (sliced) await nextTurn();
  return run.result(sliced ? await run.applySliced() : await run.applyWhole());
}

/** An entry of an .ics or CSV file: a CSV row, or a VEVENT with its changed dates. */
type FileRow = CsvInput | IcsRow;
type IcsRow = IcsEvent & { kind: 'events' };
const isIcsRow = (row: FileRow): row is IcsRow => 'overrides' in row;

/** The entries of an .ics or CSV file; an ImportError with every problem of it, or when it holds none. */
async function readEntries(
  file: string,
  text: string,
  format: 'ics' | 'csv',
  dates: CsvDates,
): Promise<FileRow[]> {
  const parsed =
    format === 'ics'
      ? await parseIcs(text).then(({ events, problems }) => ({
          inputs: events.map((event) => ({ kind: 'events' as const, ...event })),
          problems,
        }))
      : await readCsv(text, dates);
  if (parsed.problems.length > 0) throw new ImportError(file, parsed.problems);
  if (parsed.inputs.length === 0)
    throw new ImportError(file, [{ line: 0, message: 'the file holds no records' }]);
  return parsed.inputs;
}

/** What the writing of one row has made so far: its entries, and whether it updates a record already here. */
interface RowState {
  updating: boolean;
  entries: Entry[];
}

/**
 * One import of an .ics or CSV file: its rows written into the store change(s) it is applied in, and what the
 * answer says of each (counts, rows, CSV matches, problems).
 */
class FileImport {
  readonly counts = { events: 0, venues: 0, organizers: 0, matchedByUid: 0, unchangedByUid: 0 };
  readonly matched: ImportMatch[] = [];
  readonly rows: ImportRow[] = [];
  readonly problems: ImportProblem[] = [];
  /** Rows of the file: a VEVENT's changed dates (RECURRENCE-ID) are rows of their own. */
  readonly total: number;
  /** UIDs of the file already given to an event of it → the line of that VEVENT. */
  private readonly claimed = new Map<string, number>();
  /** The events here by UID: read inside the (first) change, when every event is read. */
  private knownByUid: Map<string, StoredEvent> | undefined;
  /** The import address refreshed: what it brought, read inside the (first) change. */
  private follow: SourceFollow | undefined;
  private done = 0;

  constructor(
    private readonly store: CalendarStore,
    private readonly file: string,
    private readonly now: Date,
    private readonly caller: Caller,
    private readonly options: ImportOptions,
    private readonly format: 'ics' | 'csv',
    private readonly inputs: FileRow[],
    private readonly matchCsv: ((row: CsvInput) => CsvMatch | undefined) | undefined,
  ) {
    this.total = inputs.reduce((sum, row) => sum + 1 + (isIcsRow(row) ? row.overrides.length : 0), 0);
  }

  private get follows(): boolean {
    return Boolean(this.options.sourceId) && this.format === 'ics';
  }

  /** A refresh's events that left its address go to the trash: many of them make it a large import too. */
  leaving(): number {
    if (!this.follows) return 0;
    const inFile = new Set(this.inputs.flatMap((row) => (isIcsRow(row) && row.uid ? [row.uid] : [])));
    return leavingCount(this.store, this.options.sourceId!, inFile, eventsByIcsUid(this.store));
  }

  /** The whole file in one store change (see applyImport). */
  async applyWhole(): Promise<string | undefined> {
    const { store, options } = this;
    const importId = await applyImport(store, this.file, this.now, options, (tx) => {
      const changes = new ImportChanges(store);
      const context = changes.watch({
        tx,
        store,
        caller: this.caller,
        now: this.now,
        language: 'en' as const,
      });
      this.knownByUid = this.format === 'ics' ? eventsByIcsUid(store) : new Map<string, StoredEvent>();
      // Read inside the change: two refreshes of one address cannot both start from the same state.
      this.follow = this.follows ? new SourceFollow(store, options.sourceId!) : undefined;
      for (const row of this.inputs) writeWhole(this.writeRow(row, changes, context), context);
      // Throwing inside the change takes every row of it back out: nothing is half-imported.
      if (this.problems.length > 0) throw new ImportError(this.file, this.problems);
      writeWhole(this.trashWhatLeft(context), context);
      changes.finish(tx);
      return changes;
    });
    // Every event of the address was here already as it has it (imported from its file before): nothing was
    // written, but what the address brought is noted, so that what leaves it later goes to the trash.
    const following = this.follow;
    if (!importId && !options.dryRun && following?.changed)
      await store.mutate((tx) => following.save({ tx }));
    return importId;
  }

  /** The file a slice of rows per store change (see applyInSlices). */
  applySliced(): Promise<string | undefined> {
    const { store, options } = this;
    const writeRow = (row: FileRow, changes: ImportChanges, context: EventWriteContext) =>
      this.writeRow(row, changes, context);
    return applyInSlices(store, this.file, this.now, this.caller, this.inputs, writeRow, this.problems, {
      ...options,
      first: () => {
        // Read inside the first change: two refreshes of one address cannot both start from the same state.
        this.follow = this.follows ? new SourceFollow(store, options.sourceId!) : undefined;
      },
      startsSlice: (row) => isIcsRow(row) && (row.input.recurrence?.length ?? 0) > 0,
      last: options.sourceId ? (context) => this.trashWhatLeft(context) : undefined,
    });
  }

  /** A refresh's events no longer at its address, to the trash (rows of their own); what it brought, noted. */
  private *trashWhatLeft(start: EventWriteContext): RowWrite {
    const follow = this.follow;
    if (!follow) return;
    const known = this.knownByUid ?? eventsByIcsUid(this.store);
    const { trashed, context } = yield* follow.trashWhatLeft(start, known);
    for (const event of trashed)
      this.rows.push({
        line: 0,
        kind: 'events',
        title: event.title,
        action: 'trash',
        reason: LEFT_THE_ADDRESS,
      });
    if (follow.changed) follow.save(context);
  }

  result(importId: string | undefined): ImportResult {
    const { counts } = this;
    return {
      format: this.format,
      ...counts,
      records: counts.events + counts.venues + counts.organizers,
      ...(this.format === 'csv' ? { matched: this.matched } : {}),
      rows: this.rows,
      ...answered(importId, this.options),
    };
  }

  /**
   * Writes one row of the file (a VEVENT with its changed dates) in the change `context` writes to. A long
   * series of a sliced import pauses (yields) once its slice's time is used up, and goes on with the context
   * of the next slice (see applyInSlices).
   */
  *writeRow(row: FileRow, changes: ImportChanges, context: EventWriteContext): RowWrite {
    changes.startEntry();
    const state: RowState = { updating: false, entries: [] };
    try {
      if (isIcsRow(row)) {
        if (!(yield* this.writeIcsRow(row, changes, context, state))) return;
      } else this.writeCsvRow(row, context, state);
      this.counts[row.kind]++;
    } catch (error) {
      const field = (error as { field?: string }).field;
      this.problems.push({
        line: row.line,
        message: `${field ? `${field}: ` : ''}${(error as Error).message}`,
      });
    }
    if (!isIcsRow(row))
      state.entries.push({ line: row.line, title: titleOf(row), keys: changes.endEntry(), notes: [] });
    this.rowWritten(row, changes, state);
  }

  /** A CSV row: the record it names here updated (a re-import), else a new one. */
  private writeCsvRow(row: CsvInput, context: EventWriteContext, state: RowState): void {
    const match = this.matchCsv?.(row);
    state.updating = match !== undefined;
    if (match) this.matched.push(writeCsvMatch(match, row, context));
    else if (row.kind === 'events') createEvent(row.input, context);
    // A venue or organizer row that matched nothing here (by name and address/email) is a new one.
    else if (row.kind === 'venues') createVenue(row.input, context, { avoidDuplicates: false });
    else createOrganizer(row.input, context, { avoidDuplicates: false });
  }

  /**
   * A VEVENT: the UID names the event, and the one already here is updated (re-importing a file duplicates
   * nothing). A UID repeated in the file on VEVENTs without RECURRENCE-ID makes separate events. False when
   * the row is skipped (a refresh follows its events by UID).
   */
  private *writeIcsRow(
    row: IcsRow,
    changes: ImportChanges,
    context: EventWriteContext,
    state: RowState,
  ): Generator<void, boolean, EventWriteContext> {
    const uid = row.uid && !this.claimed.has(row.uid) ? row.uid : '';
    const sameUid = row.uid && !uid ? this.claimed.get(row.uid) : undefined;
    if (uid) this.claimed.set(uid, row.line);
    const identity = identityOfIcsUid(uid);
    const known = (this.knownByUid ??=
      this.format === 'ics' ? eventsByIcsUid(this.store) : new Map<string, StoredEvent>());
    // As it is now: a user's edit between two slices of the import is not written over with an old copy.
    const found = known.get(identity.icsUid ?? identity.uid ?? '');
    const existing = found && this.store.events.get(found.id);
    const skipped = this.follow?.skipReason(uid, existing, sameUid !== undefined);
    if (skipped) {
      this.skipRow(row, skipped);
      return false;
    }
    state.updating = existing !== undefined;
    // The event, then each changed date: entries of their own, each with its line.
    const entryWritten = (line: number, title: unknown) =>
      state.entries.push({ line, title: textOf(title), keys: changes.endEntry(), notes: [] });
    const input = this.follow ? this.follow.inputFor(uid, existing, row.input, context) : row.input;
    yield* importIcsEvent({ ...row, input }, existing, identity, context, this.problems, entryWritten);
    if (sameUid)
      state.entries[0]!.notes.push(
        `its UID is also that of the event at line ${sameUid}: it becomes an event of its own`,
      );
    return true;
  }

  /** A VEVENT not imported, and neither are its changed dates: rows of their own, with why. */
  private skipRow(row: IcsRow, reason: string): void {
    const skip = (line: number, title: unknown) =>
      this.rows.push({ line, kind: 'events', title: textOf(title), action: 'skip', reason });
    skip(row.line, row.input.title);
    for (const one of row.overrides) skip(one.veventLine, one.input.title ?? row.input.title);
    this.entriesDone(1 + row.overrides.length);
  }

  /** The rows of a written row of the file, each judged once the whole row is written. */
  private rowWritten(row: FileRow, changes: ImportChanges, state: RowState): void {
    const written = state.entries.map((entry) => rowOf(changes, row.kind, entry, state.updating));
    this.rows.push(...written);
    if (isIcsRow(row) && state.updating) {
      this.counts.matchedByUid++;
      if (written.every((one) => one.action === 'unchanged')) this.counts.unchangedByUid++;
    }
    this.entriesDone(isIcsRow(row) ? 1 + row.overrides.length : 1);
  }

  private entriesDone(count: number): void {
    this.done += count;
    this.options.onEntry?.(this.done, this.total);
  }
}

/** What became of an entry: judged once its whole row is written (a VEVENT's changed dates too). */
function rowOf(changes: ImportChanges, kind: ImportRow['kind'], entry: Entry, updating: boolean): ImportRow {
  const added = changes
    .createdLinkedAmong(entry.keys)
    .map((post) => `also adds the ${post.kind} "${post.name}", which the calendar did not have`);
  const reasons = [...entry.notes, ...added];
  const action = !updating ? 'create' : changes.changedAmong(entry.keys) ? 'update' : 'unchanged';
  return {
    line: entry.line,
    kind,
    title: entry.title,
    action,
    ...(reasons.length ? { reason: reasons.join('; ') } : {}),
  };
}

/** The id of an applied import that wrote something, or the mark of a preview. */
const answered = (importId: string | undefined, options: ImportOptions) =>
  options.dryRun ? { dry_run: true as const } : importId ? { import_id: importId } : {};

/** The title or name an entry of a file gives its record. */
function titleOf(row: CsvInput): string {
  if (row.kind === 'venues') return row.input.venue ?? '';
  if (row.kind === 'organizers') return row.input.organizer ?? '';
  return String(row.input.title ?? '');
}

/**
 * Runs an import's store change (`write` answers the records it watched) and notes it in the import history
 * before the store write lands (see importHistory.ts); a preview or an import that changes nothing writes
 * nothing at all. Answers the import's id, if it wrote something.
 */
async function applyImport(
  store: CalendarStore,
  file: string,
  now: Date,
  options: ImportOptions,
  write: (tx: Transaction) => ImportChanges,
): Promise<string | undefined> {
  const history = importHistoryOf(store);
  let importId: string | undefined;
  try {
    await store.mutate((tx) => {
      const changes = write(tx);
      if (options.dryRun) throw new PreviewTakenBack();
      importId = history.begin(basename(file), options.sourceId ?? null, now, changes.written());
    });
  } catch (error) {
    // Every record already as the file has it (nothing was written), or a preview taken back.
    if (error instanceof NothingChanged || error instanceof PreviewTakenBack) return undefined;
    // The store write failed and its change was taken back: there is nothing to undo.
    if (importId) history.failed(importId);
    throw error;
  }
  if (importId) history.landed(importId);
  return importId;
}

/** Thrown at the end of a slice of an import whose file has problems, or of a preview: the slice is taken back. */
class SliceTakenBack extends Error {}

/** What an import applied in slices does besides its rows. */
interface SliceSteps<Row> {
  /** A preview: each slice is taken back at its end (so no reader ever sees it), nothing is noted. */
  dryRun?: boolean;
  /** The import address refreshed (the history notes it). */
  sourceId?: string;
  /** In the first slice's change, before its first row. */
  first?: () => void;
  /**
   * Rows that begin a slice of their own (a VEVENT with rules: expanding its dates is tens of milliseconds in
   * one piece, which a slice's other rows would add to).
   */
  startsSlice?: (row: Row) => boolean;
  /**
   * After the last row, in changes of its own (an address's events that left it go to the trash): it pauses
   * (yields) once a change's time is used up, and goes on with the context of the next one.
   */
  last?: (context: EventWriteContext) => RowWrite;
}

/**
 * Applies the rows of a large import a slice at a time (about SLICE_MS of work per store change, each
 * awaited on disk, the event loop free between two), so that a file of some 50,000 events does not hold the
 * server for seconds (issue 26 item 3). What users rely on stays: the import is one entry in the history,
 * noted once every slice has landed, which an undo takes back whole; a file with problems is still read to
 * its end, for every problem, and nothing of it stays; a write that fails part-way (a full disk) takes back
 * the slices applied before it, as an undo would, and reports the failure. Writes of others between two
 * slices are kept: the slices read the store as it is when they run, and the taking back leaves a record
 * changed since the import wrote it as it is. A crash between two slices leaves the slices applied so far
 * without their entry in the history (they are ordinary events then; an address refreshed finds them by UID).
 * A preview runs the very same slices, each taken back at its end before any other request is answered, so it
 * says what the import does (a venue or organizer that a row of an earlier slice would add is said to be
 * added again by a later row naming it).
 */
async function applyInSlices<Row>(
  store: CalendarStore,
  file: string,
  now: Date,
  caller: Caller,
  inputs: Row[],
  writeRow: (row: Row, changes: ImportChanges, context: EventWriteContext) => RowWrite,
  problems: ImportProblem[],
  steps: SliceSteps<Row>,
): Promise<string | undefined> {
  const changes = new ImportChanges(store);
  let next = 0;
  /** One store change of the import: taken back at its end when the file has problems or it is a preview. */
  const slice = (write: (context: EventWriteContext) => void) =>
    store
      .mutate((tx) => {
        // A series stops making its events when the slice's time is up, and goes on in the next slice; in a
        // preview, whose slices are each taken back, it is left there (its other dates are known all the same).
        const until = performance.now() + SLICE_MS;
        const context = changes.watch({
          tx,
          store,
          caller,
          now,
          language: 'en' as const,
          ...(steps.dryRun ? { occurrencesUntil: until } : { seriesDeadline: until }),
        });
        write(context);
        if (problems.length > 0 || steps.dryRun) throw new SliceTakenBack();
        changes.endSlice(tx);
      })
      .catch((error: unknown) => {
        if (!(error instanceof SliceTakenBack)) throw error;
      });
  /** The row being written, when a long series of it goes on in the next slice. */
  let current: RowWrite | undefined;
  // The slices being written to disk: a few at a time (group commit writes them together), so that the next
  // slice is made while the disk writes the last ones (one fsync per slice made a large import wait on the
  // disk for minutes), and a failed write stops the import soon after.
  const writing: Array<Promise<void>> = [];
  let failed: { error: unknown } | undefined;
  const throwIfFailed = () => {
    if (failed) throw failed.error;
  };
  /** Makes the next slice, and lets the event loop go once the slices on their way to disk allow it. */
  const sliceThenYield = async (write: (context: EventWriteContext) => void) => {
    writing.push(slice(write).catch((error: unknown) => void (failed ??= { error })));
    if (writing.length >= SLICES_WRITING) await writing.shift();
    throwIfFailed();
    await nextTurn();
  };
  try {
    while (next < inputs.length || current) {
      await sliceThenYield((context) => {
        // A slice made while an earlier one waited (a change right after a start waits for the records to be
        // read) may find every row written by then.
        if (!current && next >= inputs.length) return;
        if (next === 0) steps.first?.();
        const started = performance.now();
        do {
          current ??= writeRow(inputs[next++]!, changes, context);
          if (current.next(context).done) current = undefined;
        } while (
          (current || (next < inputs.length && !steps.startsSlice?.(inputs[next]!))) &&
          performance.now() - started < SLICE_MS
        );
      });
    }
    await Promise.all(writing.splice(0));
    throwIfFailed();
    if (problems.length > 0) throw new ImportError(file, problems);
    if (steps.last) {
      let finishing: RowWrite | undefined;
      for (let finished = false; !finished;) {
        await sliceThenYield((context) => {
          finishing ??= steps.last!(context);
          finished = finishing.next(context).done === true;
        });
      }
      await Promise.all(writing.splice(0));
      throwIfFailed();
    }
    const records = changes.slicedWritten();
    // A preview, or every record already as the file has it: nothing to note, nothing to undo.
    if (steps.dryRun || records.length === 0) return undefined;
    const history = importHistoryOf(store);
    const importId = await history.beginSoon(basename(file), steps.sourceId ?? null, now, records);
    await history.settledSoon(importId, 'landed');
    return importId;
  } catch (error) {
    // Every slice's write settled first: one still on its way could land after the taking back.
    await Promise.all(writing);
    const applied = changes.slicedWritten();
    try {
      await takeBackSlices(store, applied, now);
    } catch (failure) {
      // The disk refuses the taking back too (full): said plainly, with what stays of the import.
      const events = applied.filter(
        (record) => record.kind === 'events' && digestOf(store.events.get(record.id)) === record.after,
      ).length;
      const stays =
        `The import of ${basename(file)} could not be saved (${(error as Error).message}), nor could what it ` +
        `had already written be taken back (${(failure as Error).message}): ${events} of its events stay in ` +
        'the calendar, without an entry in ' +
        'the import history; delete them by hand, or import the file again once the disk has room (it updates ' +
        'the events it finds instead of doubling them).';
      console.error(`calendar-desk: ${stays}`);
      if (error instanceof StorageUnavailableError) throw new PartlySavedError(stays, { cause: error });
    }
    throw error;
  }
}

/** Slices of an import being written to disk at most at once (see applyInSlices). */
const SLICES_WRITING = 8;

/** Records taken back per store change when a sliced import fails. */
const TAKE_BACK_SLICE = 1_000;

/**
 * Takes back what the slices of a failed import wrote, as an undo does but for good: a record it created is
 * deleted (not trashed: the import did not happen), one it changed is put back as it was (a new revision); a
 * record changed by someone else since is left as it is.
 */
async function takeBackSlices(store: CalendarStore, records: WrittenRecord[], now: Date): Promise<void> {
  for (let start = 0; start < records.length; start += TAKE_BACK_SLICE) {
    await store.mutate((tx) => {
      for (const written of records.slice(start, start + TAKE_BACK_SLICE)) {
        const current = store[written.kind].get(written.id);
        if (!current || digestOf(current) !== written.after) continue;
        if (!written.before) tx.deletePost(current.kind, current.id, nowUtc(now));
        else {
          const back = { ...written.before, revision: current.revision + 1, modifiedUtc: nowUtc(now) };
          if (back.kind === 'event') tx.putEvent(back);
          else if (back.kind === 'venue') tx.putVenue(back);
          else tx.putOrganizer(back);
        }
      }
    });
    await nextTurn();
  }
}

/** A JSON dump, restored into an empty calendar: every record it holds is created. */
async function importDumpFile(
  store: CalendarStore,
  file: string,
  text: string,
  now: Date,
  caller: Caller,
  options: ImportOptions,
): Promise<ImportResult> {
  const dump = parseDump(text, file);
  // Read and checked in one turn of the event loop, written in the next (each some tens of ms at 1 MiB).
  await nextTurn();
  checkDumpTarget(store, file);
  const rows: ImportRow[] = [
    ...dump.data.venues.map((venue) => ({ kind: 'venues' as const, title: venue.name })),
    ...dump.data.organizers.map((organizer) => ({ kind: 'organizers' as const, title: organizer.name })),
    ...dump.data.events.map((event) => ({ kind: 'events' as const, title: event.title })),
  ].map((row) => ({ line: 0, ...row, action: 'create' as const }));
  const importId = await applyImport(store, file, now, options, (tx) => {
    const changes = new ImportChanges(store);
    // Settings and categories come too: a dump is restored even when it holds no event, venue or organizer.
    applyDump(changes.watch({ tx, store, caller, now, language: 'en' }).tx, store, dump);
    options.onEntry?.(rows.length, rows.length);
    return changes;
  });
  const live = <T extends { status: string }>(records: T[]) =>
    records.filter((record) => record.status !== 'trash').length;
  return {
    format: 'json',
    records: dumpRecordCount(dump),
    events: live(dump.data.events),
    venues: live(dump.data.venues),
    organizers: live(dump.data.organizers),
    rows,
    ...answered(importId, options),
  };
}

/**
 * One VEVENT (with its changed dates, for a series) into the calendar: the event of its UID here is updated,
 * else it is created. A series' changed dates are changes of the matching occurrence alone (scope `this`).
 */
export function* importIcsEvent(
  row: IcsEvent,
  existing: StoredEvent | undefined,
  identity: EventIdentity,
  context: EventWriteContext,
  problems: ImportProblem[],
  /** Called after the VEVENT and after each of its changed dates, with the line of its BEGIN:VEVENT. */
  entryRow: (line: number, title: unknown) => void,
): RowWrite {
  const { store } = context;
  // The file is the truth about repeating: a VEVENT without rules makes a series here a single event again.
  const input: EventInput =
    existing && inSeries(existing) && !row.input.recurrence ? { ...row.input, recurrence: [] } : row.input;
  // Changes go through the API's series writes, with their checks (the importer may change each event).
  let event: StoredEvent;
  if (existing) {
    // A whole series' change may pause between two of its events (see changingInSeries).
    ({ value: event, context } = yield* guardedSeriesWrite(context, 'edit', (guarded) =>
      changingInSeries(existing, seriesEditOf(existing, input), 'all', guarded),
    ));
  } else event = createEvent(input, context, identity);
  // A series stopped by its slice's deadline is made to its end in the next slices, before its changed dates.
  const headId = seriesHeadOf(store, store.events.get(event.id)!)?.id;
  while (context.seriesDeadline !== undefined && headId !== undefined) {
    const head = store.events.get(headId);
    if (!head || !unfinished(store, head, context.now)) break;
    context = yield;
    const now = store.events.get(headId);
    if (!now) break; // taken back with its slice (the file has problems): nothing to go on with
    materialiseSeries(now, context);
  }
  let changing = guardedTransaction(context, 'edit');
  entryRow(row.line, row.input.title);
  const head = seriesHeadOf(store, store.events.get(event.id)!);
  // Each date of the series by its original start, read once: a file may change thousands of them.
  const byDate = new Map<string | undefined, StoredEvent>();
  if (head && row.overrides.length > 0)
    for (const one of [head, ...seriesOccurrences(store, head)])
      if (!byDate.has(one.recurrenceId)) byDate.set(one.recurrenceId, one);
  for (const override of row.overrides) {
    if (context.seriesDeadline !== undefined && performance.now() > context.seriesDeadline) {
      context = yield;
      changing = guardedTransaction(context, 'edit');
    }
    const found = head && byDate.get(override.recurrenceId);
    // As it is now (an earlier changed date of the file may have written it).
    const occurrence = found ? store.events.get(found.id) : undefined;
    if (!occurrence && head && context.occurrencesUntil !== undefined) {
      // A preview that left the series made up to some date: a later date of it is one the import makes.
      const latest = store.events.get(head.id) ?? head;
      if (isUnmadeSeriesDate(store, context.now, latest, override.recurrenceId)) {
        entryRow(override.veventLine, override.input.title ?? row.input.title);
        continue;
      }
    }
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
    entryRow(override.veventLine, override.input.title ?? row.input.title);
  }
}

/** The writing of one row of a file: it yields to go on in the next slice's store change (its context). */
type RowWrite = Generator<void, void, EventWriteContext>;

/** Writes a row (or other paused work) in one store change (`context` given again to work that pauses). */
function writeWhole<T>(row: Generator<void, T, EventWriteContext>, context: EventWriteContext): T {
  for (;;) {
    const step = row.next(context);
    if (step.done) return step.value;
  }
}

/** True when the series of `head` was stopped before the horizon (see `seriesDeadline`): more to make. */
function unfinished(store: CalendarStore, head: StoredEvent, now: Date): boolean {
  return (
    head.horizonLocal !== undefined &&
    head.horizonLocal.slice(0, 10) < horizonOf(store, now, head.timezone).slice(0, 10)
  );
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
