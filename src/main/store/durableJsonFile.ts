import { randomBytes } from 'node:crypto';
import { copyFile, link, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { readChunkedJsonFile } from './chunkedJson';
import type { LineLayout } from './lineLayout';
import { basename, dirname, resolve } from 'node:path';
import type { Adapter } from 'lowdb';
import { writeFully } from './journal';
import { isRunning } from './processes';

/**
 * A lowdb adapter whose `write()` only resolves once the new content is on disk: it writes a temporary
 * file, fsyncs it, renames it over the data file and fsyncs the folder. A crash at any moment leaves
 * either the old or the new complete file, never a torn one. (lowdb's own JSONFile renames without fsync.)
 */
export class DurableJsonFile<T> implements Adapter<T> {
  constructor(private readonly filename: string) {}

  /** The file's document; the arrays named in `rawParts` may be RawLines (see ChunkedJsonReader). */
  async read(rawParts?: readonly string[]): Promise<T | null> {
    let data: T | null;
    try {
      data = (await readJsonFile(this.filename, rawParts)) as T | null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    // `null` means "no file" to lowdb: a file that holds `null` is damaged, not absent.
    if (data === null) throw new SyntaxError('the file holds null');
    return data;
  }

  async write(data: T): Promise<void> {
    await writeFileDurably(this.filename, serializeInChunks(data));
  }
}

/** Records serialized per chunk: small enough that writing a big calendar never blocks requests for long. */
const RECORDS_PER_CHUNK = 500;

/**
 * JSON of `data` in pieces, one record per line inside top-level arrays: a valid, greppable JSON document
 * that is produced between writes instead of in one long `JSON.stringify` of the whole calendar.
 */
export function* serializeInChunks(data: unknown, layout?: LineLayout): Generator<string> {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    yield JSON.stringify(data);
    return;
  }
  const entries = Object.entries(data as Record<string, unknown>).filter(([, value]) => value !== undefined);
  // Bytes yielded so far, counted only for a layout (see lineLayout.ts).
  let bytes = 0;
  const counted = (text: string) => {
    if (layout) bytes += Buffer.byteLength(text);
    return text;
  };
  yield counted('{');
  for (const [index, [key, value]] of entries.entries()) {
    const member = layout?.member?.key === key ? layout.member : null;
    // The member's line starts after the comma and newline ending the line before.
    if (member) member.from = bytes + (index > 0 ? 2 : 1);
    yield counted(`${index > 0 ? ',' : ''}\n${JSON.stringify(key)}:`);
    if (!Array.isArray(value)) {
      yield counted(JSON.stringify(value));
      if (member) member.to = bytes;
      continue;
    }
    if (member) member.from = undefined;
    if (value.length === 0) {
      yield counted('[]');
      continue;
    }
    const offsets = layout?.key === key ? layout.offsets : null;
    for (let at = 0; at < value.length; at += RECORDS_PER_CHUNK) {
      const chunk = value.slice(at, at + RECORDS_PER_CHUNK).map((item) => JSON.stringify(item));
      if (offsets) {
        // Each line starts after the `[\n` or `,\n` before it.
        let offset = bytes;
        for (const line of chunk) {
          offsets.push(offset + 2);
          offset += 2 + Buffer.byteLength(line);
        }
      }
      yield counted(`${at === 0 ? '[\n' : ',\n'}${chunk.join(',\n')}`);
    }
    // The `]` line starts after the newline that ends the last element's line.
    offsets?.push(bytes + 1);
    yield counted('\n]');
  }
  yield counted('\n}\n');
}

/**
 * The JSON document in `filename`. A file in the layout `serializeInChunks` writes is read a few megabytes and
 * one line at a time (see ChunkedJsonReader): a 100k-event calendar would otherwise be a ~120 MB buffer plus
 * a ~240 MB string (UTF-16 once one character is not Latin-1) left for the garbage collector. Anything else
 * is parsed as a whole, so the result (or the SyntaxError) is always what `JSON.parse` gives.
 */
export async function readJsonFile(filename: string, rawParts?: readonly string[]): Promise<unknown> {
  const read = await readChunkedJsonFile(filename, rawParts);
  return read ? read.value : JSON.parse(await readFile(filename, 'utf8'));
}

/** Durable writes this process started, so that no two of its temporary copies ever share a name. */
let writesStarted = 0;

/**
 * A fresh temporary file for a durable write of `name` (`.<name>.<pid>-<n>-<random>.tmp`, beside it): the pid
 * tells the start's sweep whose copy it is, the rest keeps two writes of one file (two requests at once)
 * from writing into, or renaming away, each other's copy.
 */
export function temporaryNameOf(name: string): string {
  writesStarted += 1;
  return `.${name}.${process.pid}-${writesStarted.toString(36)}-${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * The file `name` is a temporary copy of and the process that wrote it, if it is one a durable write makes
 * (also `.<name>.<pid>.tmp`, the name earlier versions used).
 */
export function temporaryCopyOf(name: string): { of: string; pid: number } | null {
  const match = /^\.(.+)\.(\d+)(?:-[0-9a-z]+-[0-9a-f]+)?\.tmp$/.exec(name);
  return match ? { of: match[1]!, pid: Number(match[2]) } : null;
}

/** Temporary copies this process is writing right now. */
const beingWritten = new Set<string>();

/**
 * Deletes the temporary copies in `folder` (of the files `isOf` accepts) that a process killed mid-write
 * left behind: those of a process that no longer runs (a zombie counts as ended), and this process's own
 * that it is not writing (a crashed predecessor may have had our pid). A copy being written is left alone.
 */
export async function removeAbandonedCopies(folder: string, isOf: (name: string) => boolean): Promise<void> {
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const copy = temporaryCopyOf(name);
    if (!copy || !isOf(copy.of)) continue;
    const path = resolve(folder, name);
    const abandoned = copy.pid === process.pid ? !beingWritten.has(path) : !isRunning(copy.pid);
    if (abandoned) await unlink(path).catch(() => undefined);
  }
}

/**
 * Writes `content` to `filename` atomically and durably (temp file + fsync + rename + fsync of the folder).
 * With `keepPrevious`, the replaced file is first hard-linked there (a free backup: no copy is made).
 * Each call writes its own temporary copy, so concurrent calls never damage the file; which one lands last
 * is for the caller to decide: the small files go through `queueFileWrite` (fileWriteQueue.ts).
 */
export async function writeFileDurably(
  filename: string,
  content: string | Buffer | Iterable<string>,
  keepPrevious?: string,
): Promise<void> {
  const temp = resolve(dirname(filename), temporaryNameOf(basename(filename)));
  beingWritten.add(temp);
  try {
    await writeThroughCopy(temp, filename, content, keepPrevious);
  } finally {
    beingWritten.delete(temp);
  }
}

async function writeThroughCopy(
  temp: string,
  filename: string,
  content: string | Buffer | Iterable<string>,
  keepPrevious?: string,
): Promise<void> {
  // `wx`: a fresh file, never one (or a link) already there.
  const handle = await open(temp, 'wx', 0o600);
  try {
    try {
      if (typeof content === 'string') await handle.writeFile(content, 'utf8');
      else if (Buffer.isBuffer(content)) await writeFully(handle, content);
      else for (const piece of content) await writeFully(handle, Buffer.from(piece, 'utf8'));
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (keepPrevious) await linkOrCopy(filename, keepPrevious);
    await rename(temp, filename);
  } catch (error) {
    // A full disk or a failed rename must not leave a half-written temporary file behind.
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(dirname(filename));
}

async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'EEXIST') return;
    await copyFile(from, to);
  }
}

export async function syncFolder(folder: string): Promise<void> {
  // Makes renames and new files in the folder durable. Some platforms (Windows) cannot open or sync folders:
  // only those refusals are ignored; a real I/O error is not.
  let handle;
  try {
    handle = await open(folder, 'r');
  } catch (error) {
    if (['EISDIR', 'EPERM', 'EACCES', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? ''))
      return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!['EINVAL', 'EPERM', 'ENOTSUP', 'EBADF'].includes((error as NodeJS.ErrnoException).code ?? ''))
      throw error;
  } finally {
    await handle.close();
  }
}
