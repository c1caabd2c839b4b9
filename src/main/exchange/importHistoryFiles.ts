/**
 * The files of the import history (see importHistory.ts): `import-history.json`, a small index of the imports
 * kept (no records), and `import-history/<id>.json`, the records one import wrote, written once. An import's
 * note and marks therefore rewrite the index only, never the records of the 20 imports kept (which can be tens
 * of megabytes each: a refresh that trashed 50,000 events), and a large import's records are written in pieces,
 * the event loop free between two (issue 26 item 3).
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { temporaryNameOf } from '../store/durableJsonFile';
import { TimeSlices } from '../core/timeSlices';

/** Characters of text converted and written at once: a few milliseconds of work. */
const PIECE = 1 << 20;

/** The folder of the records' files beside the index `file`. */
export const recordsFolderOf = (file: string) => join(dirname(file), basename(file, '.json'));

/** The file of one import's records. */
export const recordsFileOf = (file: string, id: string) => join(recordsFolderOf(file), `${id}.json`);

/** Temp file, fsync, rename over, fsync of the folder: a crash leaves the old or the new file, never a torn one. */
export function writeFileDurablySync(file: string, parts: readonly string[]): void {
  // Named as every durable write names its copy, so a sweep removes one a crash left behind.
  // Synchronous, so no other write of this process can run while it is written.
  const temp = join(dirname(file), temporaryNameOf(basename(file)));
  const handle = openSync(temp, 'wx', 0o600);
  try {
    for (const part of parts) writeSync(handle, part);
    fsyncSync(handle);
  } catch (error) {
    closeSync(handle);
    unlinkSync(temp);
    throw error;
  }
  closeSync(handle);
  renameSync(temp, file);
  syncFolderSync(dirname(file));
}

function syncFolderSync(folder: string): void {
  const handle = openSync(folder, 'r');
  try {
    fsyncSync(handle);
  } finally {
    closeSync(handle);
  }
}

/**
 * {@link writeFileDurablySync} without holding the event loop: the parts are written a piece of about a
 * megabyte at a time. `beforeRename` is asked in the turn of the rename (false: the copy is dropped, the file
 * left as it is); `renamed` runs in that same turn. Answers whether it was renamed.
 */
export async function writeFileDurablySoon(
  file: string,
  parts: readonly string[],
  beforeRename: () => boolean = () => true,
  renamed: () => void = () => {},
): Promise<boolean> {
  const temp = join(dirname(file), temporaryNameOf(basename(file)));
  const slices = new TimeSlices();
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      for (const part of parts) {
        for (let at = 0; at < part.length; at += PIECE) {
          await handle.write(part.length <= PIECE ? part : part.slice(at, at + PIECE));
          await slices.pause();
        }
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Checked and renamed in one turn of the event loop: no other write of the file can come between.
    if (!beforeRename()) {
      await unlink(temp);
      return false;
    }
    renameSync(temp, file);
    renamed();
    const folder = await open(dirname(file), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
    return true;
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Makes the records' folder (0700: the versions hold drafts and event passwords) when it is missing. */
export function ensureRecordsFolder(file: string): void {
  mkdirSync(recordsFolderOf(file), { recursive: true, mode: 0o700 });
}

/** The text of one import's records file, or null when it is missing. */
export function readRecordsFile(file: string, id: string): string | null {
  try {
    return readFileSync(recordsFileOf(file, id), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Removes the records' files of imports the index no longer keeps (forgotten, failed, or written by a run
 * that stopped before its index was), and copies a crash left half-written.
 */
export function removeUnkeptRecords(file: string, keptIds: ReadonlySet<string>): void {
  let names: string[];
  try {
    names = readdirSync(recordsFolderOf(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const name of names) {
    if (name.endsWith('.json') && keptIds.has(name.slice(0, -'.json'.length))) continue;
    try {
      unlinkSync(join(recordsFolderOf(file), name));
    } catch {
      // Another process's copy being written, or already gone: left for the next sweep.
    }
  }
}

/** The records of an import as text, a slice of 500 at a time, the event loop free between two. */
export async function recordsPartsSoon(records: readonly unknown[]): Promise<string[]> {
  const slices = new TimeSlices();
  const parts: string[] = ['['];
  for (let start = 0; start < records.length; start += 500) {
    const text = JSON.stringify(records.slice(start, start + 500)).slice(1, -1);
    parts.push(start === 0 ? text : `,${text}`);
    await slices.pause();
  }
  parts.push(']');
  return parts;
}
