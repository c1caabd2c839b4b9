import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { CalendarStore } from '../store/store';
import { describeWriteFailure, StorageUnavailableError, storageRefusalOf } from '../store/storageRefusal';
import type { StoredEvent, StoredOrganizer, StoredVenue } from '../store/schema';
import {
  importHistoryEntrySchema,
  importKindSchema,
  type ImportHistoryEntry,
  type ImportKind,
} from '../../shared/schemas/imports';
import {
  ensureRecordsFolder,
  readRecordsFile,
  recordsFileOf,
  recordsPartsSoon,
  removeUnkeptRecords,
  writeFileDurablySoon,
  writeFileDurablySync,
} from './importHistoryFiles';

/*
 * The last imports and, for each, every record it wrote as it was before (issue 15 item 2: undo of a whole
 * import). Kept in the data folder: `import-history.json` lists the imports, `import-history/<id>.json` holds
 * the records of each (importHistoryFiles.ts), mode 0600 in a 0700 folder: the versions hold drafts and event
 * passwords.
 *
 * Crash safety: an import's entry is written (durably) BEFORE its store write, marked `pending`, and marked
 * done after. A crash between the two writes therefore never loses an undo: at the next start a pending entry
 * is kept when the store shows its import (a record it wrote is exactly as the import left it) and dropped
 * when it does not (the store write never landed; nothing to undo). Writing the history after the store
 * instead would silently lose the undo of an import that a crash caught between the two writes. An import's
 * records are on disk before the index names it: a crash between the two leaves a records file no entry
 * names, removed at the next start.
 */

export const HISTORY_FILE = 'import-history.json';
/** How many imports are kept for undo (the oldest are forgotten). */
const KEPT_IMPORTS = 20;

export type Tracked = StoredEvent | StoredVenue | StoredOrganizer;

/** A record an import wrote: its version before (null: the import created it) and a digest of it after. */
export interface WrittenRecord {
  kind: ImportKind;
  id: number;
  before: Tracked | null;
  /** Digest of the record as the import left it: an undo leaves a record changed since then as it is. */
  after: string;
  /** The import moved it to the trash (an address refresh trashes what left the source). */
  trashed?: boolean;
}

const writtenRecordsSchema = z.array(
  z.object({
    kind: importKindSchema,
    id: z.number(),
    // The stored record as it was (the store's own schema checked it when it was written).
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.string(),
    trashed: z.boolean().optional(),
  }),
);

/** An entry of the index; `records` inline only in files written before they had files of their own. */
const indexEntrySchema = importHistoryEntrySchema.extend({
  pending: z.boolean().optional(),
  records: writtenRecordsSchema.optional(),
});
type StoredImport = z.infer<typeof importHistoryEntrySchema> & {
  pending?: boolean;
  records: WrittenRecord[];
};

/** Digest of a record's stored form (what an undo compares to tell whether it changed since). */
export const digestOf = (record: Tracked | undefined): string =>
  record ? createHash('sha256').update(JSON.stringify(record)).digest('hex') : '';

/** Said the way the calendar's own writes say a refused disk (503, what to do). */
function refusedNote(error: unknown, folder: string): unknown {
  if (!storageRefusalOf(error)) return error;
  return new StorageUnavailableError(
    `could not note the import in its history: ${describeWriteFailure(error, folder)}`,
    { cause: error },
  );
}

export class ImportHistory {
  private entries: StoredImport[];

  constructor(
    private readonly file: string,
    store: CalendarStore,
  ) {
    const { entries: stored, inline } = readHistory(file);
    const landed = (entry: StoredImport) =>
      entry.records.some((record) => digestOf(store[record.kind].get(record.id)) === record.after);
    this.entries = stored
      .filter((entry) => !entry.pending || landed(entry))
      .map(({ pending: _pending, ...entry }) => entry);
    // Settled once: the entries a crash left pending are now known to have landed, or are gone; a history
    // written with the records inline gets their files.
    if (inline) for (const entry of this.entries) this.writeRecords(entry);
    if (inline || stored.some((entry) => entry.pending)) this.save(this.entries);
    removeUnkeptRecords(file, new Set(this.entries.map((entry) => entry.id)));
  }

  /** The imports kept, newest first, as `GET imports` lists them. */
  list(): ImportHistoryEntry[] {
    return this.entries.map(({ records: _records, pending: _pending, ...entry }) => entry);
  }

  get(id: string): StoredImport | undefined {
    return this.entries.find((entry) => entry.id === id && !entry.pending);
  }

  /**
   * Notes, before the store write of an import, what it writes (durably: see the comment at the top).
   * Synchronous: it runs inside the import's store change, which must not yield. Only this import's records
   * and the small index are written: an import applied whole is small.
   */
  begin(fileName: string, sourceId: string | null, at: Date, records: WrittenRecord[]): string {
    const entry = this.entryOf(fileName, sourceId, at, records);
    this.writeRecords(entry);
    // Kept in memory only once on disk: an import whose note cannot be written is refused, and never listed.
    const next = [entry, ...this.entries].slice(0, KEPT_IMPORTS);
    try {
      this.save(next);
    } catch (error) {
      this.forgetRecords(entry.id);
      throw error;
    }
    this.entries = next;
    return entry.id;
  }

  private entryOf(
    fileName: string,
    sourceId: string | null,
    at: Date,
    records: WrittenRecord[],
  ): StoredImport {
    const trashed = (record: WrittenRecord) => record.before !== null && record.trashed === true;
    return {
      id: randomUUID(),
      at: at.toISOString(),
      file_name: fileName,
      source_id: sourceId,
      created: records.filter((record) => record.before === null).length,
      updated: records.filter((record) => record.before !== null && !trashed(record)).length,
      trashed: records.filter(trashed).length,
      undone: false,
      pending: true,
      records,
    };
  }

  /**
   * {@link begin} for an import applied in slices, after its last slice landed (outside any store change): the
   * records are turned into text a slice at a time and written a piece at a time, so that the history of a
   * 50,000-event import costs no long stall (issue 26).
   */
  async beginSoon(
    fileName: string,
    sourceId: string | null,
    at: Date,
    records: WrittenRecord[],
  ): Promise<string> {
    const entry = this.entryOf(fileName, sourceId, at, records);
    try {
      ensureRecordsFolder(this.file);
      await writeFileDurablySoon(recordsFileOf(this.file, entry.id), await recordsPartsSoon(records));
    } catch (error) {
      throw refusedNote(error, join(this.file, '..'));
    }
    const next = [entry, ...this.entries].slice(0, KEPT_IMPORTS);
    const renamed = await this.saveSoon(next, () => (this.entries = next));
    if (!renamed) {
      // Another import's note was written meanwhile: written again, with both.
      const both = [entry, ...this.entries].slice(0, KEPT_IMPORTS);
      this.save(both);
      this.entries = both;
    }
    return entry.id;
  }

  /** {@link landed}, or {@link undone}, written without holding the event loop (see {@link beginSoon}). */
  async settledSoon(id: string, mark: 'landed' | 'undone'): Promise<void> {
    const next = this.updated(id, (entry) =>
      mark === 'landed' ? { ...entry, pending: undefined } : { ...entry, undone: true },
    );
    this.entries = next;
    await this.saveSoon(next).catch((error: unknown) => {
      if (!(error instanceof StorageUnavailableError)) throw error;
    });
  }

  /** The import's store write is durable. */
  landed(id: string): void {
    this.afterStoreWrite(this.updated(id, (entry) => ({ ...entry, pending: undefined })));
  }

  /** The import's store write failed (its change was taken back): nothing to undo. */
  failed(id: string): void {
    this.afterStoreWrite(this.entries.filter((entry) => entry.id !== id));
    this.forgetRecords(id);
  }

  /** Noted after the undo's store write: a crash between them leaves an undo that restores nothing more. */
  undone(id: string): void {
    this.afterStoreWrite(this.updated(id, (entry) => ({ ...entry, undone: true })));
  }

  /**
   * The entries as they are once the store write has landed or failed: memory takes them whatever the disk
   * says, since a disk refusing the note then must not make the import (or undo) look failed. The file keeps
   * the entry `pending`, which the next start settles by the records' digests (an undo's mark is lost then:
   * undoing again restores nothing more).
   */
  private afterStoreWrite(next: StoredImport[]): void {
    this.entries = next;
    try {
      this.save(next);
    } catch (error) {
      if (!(error instanceof StorageUnavailableError)) throw error;
    }
  }

  /** The entries with the entry `id` changed. */
  private updated(id: string, change: (entry: StoredImport) => StoredImport): StoredImport[] {
    return this.entries.map((entry) => (entry.id === id ? change(entry) : entry));
  }

  /** An import's records in their own file, durably (synchronous: see {@link begin}). */
  private writeRecords(entry: StoredImport): void {
    try {
      ensureRecordsFolder(this.file);
      writeFileDurablySync(recordsFileOf(this.file, entry.id), [JSON.stringify(entry.records)]);
    } catch (error) {
      throw refusedNote(error, join(this.file, '..'));
    }
  }

  private forgetRecords(id: string): void {
    try {
      unlinkSync(recordsFileOf(this.file, id));
    } catch {
      // Removed at the next start if still there.
    }
  }

  /** Removes the records' files of the entries `next` no longer keeps (after its index is written). */
  private forgetDropped(before: StoredImport[], next: StoredImport[]): void {
    const kept = new Set(next.map((entry) => entry.id));
    for (const entry of before) if (!kept.has(entry.id)) this.forgetRecords(entry.id);
  }

  private save(entries: StoredImport[]): void {
    this.saves++;
    try {
      writeFileDurablySync(this.file, [indexText(entries)]);
    } catch (error) {
      throw refusedNote(error, join(this.file, '..'));
    }
    this.forgetDropped(this.entries, entries);
  }

  /** How many writes of the index were started: a slower write that a later one overtook is not renamed over it. */
  private saves = 0;

  /**
   * {@link save}, written asynchronously (temporary copy, fsync, rename unless a later write overtook it:
   * then false). `renamed` runs in the same turn as the rename.
   */
  private async saveSoon(entries: StoredImport[], renamed = () => {}): Promise<boolean> {
    const mine = ++this.saves;
    const before = this.entries;
    try {
      const done = await writeFileDurablySoon(
        this.file,
        [indexText(entries)],
        () => this.saves === mine,
        renamed,
      );
      if (done) this.forgetDropped(before, entries);
      return done;
    } catch (error) {
      throw refusedNote(error, join(this.file, '..'));
    }
  }
}

/** The index's text: the entries without their records (those are in files of their own). */
function indexText(entries: StoredImport[]): string {
  return JSON.stringify(
    entries.map(({ pending, records: _records, ...entry }) => (pending ? { ...entry, pending } : entry)),
  );
}

/** A written record as the history keeps it, from the store as the import leaves it. */
export function writtenRecord(kind: ImportKind, before: Tracked | undefined, now: Tracked): WrittenRecord {
  const trashed = now.status === 'trash' && before !== undefined && before.status !== 'trash';
  return { kind, id: now.id, before: before ?? null, after: digestOf(now), ...(trashed ? { trashed } : {}) };
}

/**
 * The entries of the index with their records (from their files; inline in a history written before they had
 * files, then `inline`). An entry whose records file is missing or damaged is dropped (its undo is lost).
 */
function readHistory(file: string): { entries: StoredImport[]; inline: boolean } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], inline: false };
    throw error;
  }
  let parsed: z.ZodSafeParseResult<z.infer<typeof indexEntrySchema>[]> | undefined;
  try {
    parsed = z.array(indexEntrySchema).safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) {
    // A damaged history must not stop the calendar: it is set aside (for whoever wants to look) and the
    // history starts afresh; only the undo of earlier imports is lost.
    const aside = `${file}.damaged-${Date.now()}`;
    renameSync(file, aside);
    console.error(
      `calendar-desk: ${file} was damaged; moved to ${aside}. Earlier imports can no longer be undone.`,
    );
    return { entries: [], inline: false };
  }
  const entries: StoredImport[] = [];
  let inline = false;
  for (const entry of parsed.data) {
    if (entry.records) inline = true;
    const records = entry.records ?? recordsOf(file, entry.id);
    if (records) entries.push({ ...entry, records: records as WrittenRecord[] });
    else
      console.error(
        `calendar-desk: the records of import ${entry.id} are missing or damaged; it can no longer be undone.`,
      );
  }
  return { entries, inline };
}

/** The records of one import from its file, or null when the file is missing or damaged. */
function recordsOf(file: string, id: string): z.infer<typeof writtenRecordsSchema> | null {
  const text = readRecordsFile(file, id);
  if (text === null) return null;
  try {
    const parsed = writtenRecordsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const histories = new WeakMap<CalendarStore, ImportHistory>();

/** The import history of a store's data folder (read, and pending entries settled, on first use). */
export function importHistoryOf(store: CalendarStore): ImportHistory {
  let history = histories.get(store);
  if (!history) {
    history = new ImportHistory(join(store.dataDir, HISTORY_FILE), store);
    histories.set(store, history);
  }
  return history;
}
