import { createHash, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TimeSlices } from './timeSlices';
import { temporaryNameOf } from '../store/durableJsonFile';
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

/*
 * The last imports and, for each, every record it wrote as it was before (issue 15 item 2: undo of a whole
 * import). Kept in the data folder in `import-history.json`, mode 0600: the versions hold drafts and event
 * passwords.
 *
 * Crash safety: an import's entry is written (durably) BEFORE its store write, marked `pending`, and marked
 * done after. A crash between the two writes therefore never loses an undo: at the next start a pending entry
 * is kept when the store shows its import (a record it wrote is exactly as the import left it) and dropped
 * when it does not (the store write never landed; nothing to undo). Writing the history after the store
 * instead would silently lose the undo of an import that a crash caught between the two writes.
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

/** An import as the file keeps it: what `GET imports` lists, and the versions an undo puts back. */
const storedImportSchema = importHistoryEntrySchema.extend({
  pending: z.boolean().optional(),
  records: z.array(
    z.object({
      kind: importKindSchema,
      id: z.number(),
      // The stored record as it was (the store's own schema checked it when it was written).
      before: z.record(z.string(), z.unknown()).nullable(),
      after: z.string(),
      trashed: z.boolean().optional(),
    }),
  ),
});
type StoredImport = Omit<z.infer<typeof storedImportSchema>, 'records'> & { records: WrittenRecord[] };

/** Digest of a record's stored form (what an undo compares to tell whether it changed since). */
export const digestOf = (record: Tracked | undefined): string =>
  record ? createHash('sha256').update(JSON.stringify(record)).digest('hex') : '';

export class ImportHistory {
  private entries: StoredImport[];

  constructor(
    private readonly file: string,
    store: CalendarStore,
  ) {
    const stored = readHistory(file);
    const landed = (entry: StoredImport) =>
      entry.records.some((record) => digestOf(store[record.kind].get(record.id)) === record.after);
    this.entries = stored
      .filter((entry) => !entry.pending || landed(entry))
      .map(({ pending: _pending, ...entry }) => entry);
    // Settled once: the entries a crash left pending are now known to have landed, or are gone.
    if (stored.some((entry) => entry.pending)) this.save(this.entries);
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
   * Synchronous: it runs inside the import's store change, which must not yield.
   */
  begin(fileName: string, sourceId: string | null, at: Date, records: WrittenRecord[]): string {
    const entry = this.entryOf(fileName, sourceId, at, records);
    // Kept in memory only once on disk: an import whose note cannot be written is refused, and never listed.
    const next = [entry, ...this.entries].slice(0, KEPT_IMPORTS);
    this.save(next);
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
   * note is written without holding the event loop (its records serialized a slice at a time, the file
   * written asynchronously), so that the history of a 50,000-event import costs no long stall (issue 26).
   */
  async beginSoon(
    fileName: string,
    sourceId: string | null,
    at: Date,
    records: WrittenRecord[],
  ): Promise<string> {
    await recordsTextSoon(records);
    const entry = this.entryOf(fileName, sourceId, at, records);
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

  private save(entries: StoredImport[]): void {
    this.saves++;
    try {
      writeFileDurablySync(this.file, historyText(entries));
    } catch (error) {
      // A full or read-only disk: said as the calendar's own writes say it (503, what to do).
      if (!storageRefusalOf(error)) throw error;
      throw new StorageUnavailableError(
        `could not note the import in its history: ${describeWriteFailure(error, join(this.file, '..'))}`,
        { cause: error },
      );
    }
  }

  /** How many writes of the file were started: a slower write that a later one overtook is not renamed over it. */
  private saves = 0;

  /**
   * {@link save}, written asynchronously (temporary copy, fsync, rename unless a later write overtook it:
   * then false). `renamed` runs in the same turn as the rename.
   */
  private async saveSoon(entries: StoredImport[], renamed = () => {}): Promise<boolean> {
    const mine = ++this.saves;
    const text = historyText(entries);
    const temp = join(dirname(this.file), temporaryNameOf(basename(this.file)));
    try {
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      // Checked and renamed in one turn of the event loop: no other write of the file can come between.
      if (this.saves !== mine) {
        await unlink(temp);
        return false;
      }
      renameSync(temp, this.file);
      renamed();
      const folder = await open(dirname(this.file), 'r');
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
      return true;
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      if (!storageRefusalOf(error)) throw error;
      throw new StorageUnavailableError(
        `could not note the import in its history: ${describeWriteFailure(error, join(this.file, '..'))}`,
        { cause: error },
      );
    }
  }
}

/** The JSON text of each import's records, made once (the file is written again at each import and undo). */
const recordsTexts = new WeakMap<WrittenRecord[], string>();

const recordsText = (records: WrittenRecord[]) => {
  let text = recordsTexts.get(records);
  if (text === undefined) recordsTexts.set(records, (text = JSON.stringify(records)));
  return text;
};

/** Makes the text of `records` a slice at a time, the event loop free between two (see beginSoon). */
async function recordsTextSoon(records: WrittenRecord[]): Promise<void> {
  if (recordsTexts.has(records)) return;
  const slices = new TimeSlices();
  const parts: string[] = [];
  for (let start = 0; start < records.length; start += 500) {
    parts.push(JSON.stringify(records.slice(start, start + 500)).slice(1, -1));
    await slices.pause();
  }
  recordsTexts.set(records, `[${parts.join(',')}]`);
}

/** The file's text: the entries, each with its records' text made once. */
function historyText(entries: StoredImport[]): string {
  const texts = entries.map(({ pending, records, ...entry }) => {
    const fields = JSON.stringify(pending ? { ...entry, pending } : entry);
    return `${fields.slice(0, -1)},"records":${recordsText(records)}}`;
  });
  return `[${texts.join(',')}]`;
}

/** A written record as the history keeps it, from the store as the import leaves it. */
export function writtenRecord(kind: ImportKind, before: Tracked | undefined, now: Tracked): WrittenRecord {
  const trashed = now.status === 'trash' && before !== undefined && before.status !== 'trash';
  return { kind, id: now.id, before: before ?? null, after: digestOf(now), ...(trashed ? { trashed } : {}) };
}

function readHistory(file: string): StoredImport[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  let parsed: z.ZodSafeParseResult<z.infer<typeof storedImportSchema>[]> | undefined;
  try {
    parsed = z.array(storedImportSchema).safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (parsed?.success) return parsed.data as StoredImport[];
  // A damaged history must not stop the calendar: it is set aside (for whoever wants to look) and the
  // history starts afresh; only the undo of earlier imports is lost.
  const aside = `${file}.damaged-${Date.now()}`;
  renameSync(file, aside);
  console.error(
    `calendar-desk: ${file} was damaged; moved to ${aside}. Earlier imports can no longer be undone.`,
  );
  return [];
}

/** Temp file, fsync, rename over, fsync of the folder: a crash leaves the old or the new file, never a torn one. */
function writeFileDurablySync(file: string, text: string): void {
  // Named as every durable write names its copy, so the start's sweep removes one a crash left behind.
  // Synchronous, so no other write of this process can run while it is written.
  const temp = join(dirname(file), temporaryNameOf(basename(file)));
  const handle = openSync(temp, 'wx', 0o600);
  try {
    writeSync(handle, text);
    fsyncSync(handle);
  } catch (error) {
    closeSync(handle);
    unlinkSync(temp);
    throw error;
  }
  closeSync(handle);
  renameSync(temp, file);
  const folder = openSync(join(file, '..'), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
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
