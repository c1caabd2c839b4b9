import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileDurably } from './store/durableJsonFile';
import { queueFileWrite } from './store/fileWriteQueue';

/**
 * The port the calendar last served on, kept in the data folder: the next start takes it again, so the
 * addresses calendar apps subscribed to (the feeds) and bookmarks keep working.
 */
export const LAST_PORT_FILE = 'server.json';

/** The port when nothing was ever recorded (the README's address). */
export const DEFAULT_PORT = 8787;

const lastPortSchema = z.object({ port: z.number().int().min(1).max(65535) });

/** The recorded port, or null (never started, or a file this version cannot read: then the default applies). */
export async function readLastPort(dataDir: string): Promise<number | null> {
  try {
    const parsed = lastPortSchema.safeParse(
      JSON.parse(await readFile(join(dataDir, LAST_PORT_FILE), 'utf8')),
    );
    return parsed.success ? parsed.data.port : null;
  } catch {
    return null;
  }
}

export async function recordLastPort(dataDir: string, port: number): Promise<void> {
  const file = join(dataDir, LAST_PORT_FILE);
  await queueFileWrite(file, () => writeFileDurably(file, `${JSON.stringify({ port })}\n`));
}

/** What to tell the user when the address moved (null when it did not). */
export function addressChangeNotice(
  host: string,
  previous: number | null,
  now: number,
  taken: boolean,
): string | null {
  if (previous === null || previous === now) return null;
  return (
    `The calendar's address changed from http://${host}:${previous} to http://${host}:${now}` +
    `${taken ? ` (port ${previous} is in use by another program)` : ''}. Calendar apps subscribed to its ` +
    'feeds need the new addresses: see Settings, Calendar feeds (or run: calendar-desk feeds).'
  );
}
