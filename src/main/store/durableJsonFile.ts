import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

/**
 * A lowdb adapter whose `write()` only resolves once the new content is on disk: it writes a temporary
 * file, fsyncs it, renames it over the data file and fsyncs the folder. A crash at any moment leaves
 * either the old or the new complete file, never a torn one. (lowdb's own JSONFile renames without fsync.)
 */
export class DurableJsonFile<T> implements Adapter<T> {
  constructor(private readonly filename: string) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.filename, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const data = JSON.parse(text) as T | null;
    // `null` means "no file" to lowdb: a file that holds `null` is damaged, not absent.
    if (data === null) throw new SyntaxError('the file holds null');
    return data;
  }

  async write(data: T): Promise<void> {
    await writeFileDurably(this.filename, JSON.stringify(data));
  }
}

/** Writes `text` to `filename` atomically and durably (temp file + fsync + rename + fsync of the folder). */
export async function writeFileDurably(filename: string, text: string): Promise<void> {
  const temp = join(dirname(filename), `.${basename(filename)}.${process.pid}.tmp`);
  const handle = await open(temp, 'w', 0o600);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, filename);
  } catch (error) {
    // A full disk or a failed rename must not leave a half-written temporary file behind.
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(dirname(filename));
}

async function syncFolder(folder: string): Promise<void> {
  // Makes the rename itself durable. Some platforms (Windows) cannot open folders: best effort there.
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* not supported on this platform */
  }
}
