import { open, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/** One committed batch of changes; `seq` grows by one per batch. */
export interface JournalEntry<Op = unknown> {
  seq: number;
  ops: Op[];
}

/** Lines that failed their checksum although intact lines follow them (not a torn tail: the disk damaged them). */
export interface JournalDamage {
  /** Damaged lines, and their size in bytes. */
  lines: number;
  bytes: number;
}

/**
 * An append-only log of committed batches, one line each: `<crc32 hex> <json>\n`. A batch is durable once
 * `append()` resolves (written and fsynced). On open, every complete line whose checksum matches is read
 * back; a torn or corrupt tail (a crash mid-write) is cut off, never replayed. A damaged line in the middle
 * is skipped, never replayed either, but the intact batches after it are kept.
 */
export class Journal<Op = unknown> {
  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private bytes: number,
  ) {}

  /** Opens (creating) the journal and returns the intact entries in order. */
  static async open<Op>(path: string): Promise<{
    journal: Journal<Op>;
    entries: JournalEntry<Op>[];
    tornBytes: number;
    damage: JournalDamage | null;
  }> {
    const handle = await open(path, 'a+', 0o600);
    try {
      const content = await handle.readFile();
      const { entries, validBytes, damage } = parseJournal<Op>(content);
      const tornBytes = content.length - validBytes;
      if (tornBytes > 0) {
        await handle.truncate(validBytes);
        await handle.sync();
      }
      return { journal: new Journal<Op>(path, handle, validBytes), entries, tornBytes, damage };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Set when a failed write could not be cut off again: nothing more may be appended. */
  private broken: Error | null = null;

  /** Size of the journal in bytes (what compaction will fold into the snapshot). */
  get size(): number {
    return this.bytes;
  }

  /** Appends batches and waits until they are on disk. */
  async append(entries: JournalEntry<Op>[]): Promise<void> {
    if (entries.length === 0) return;
    const text = entries.map((entry) => encodeLine(entry)).join('');
    const buffer = Buffer.from(text, 'utf8');
    if (this.broken) throw this.broken;
    try {
      await writeFully(this.handle, buffer);
      await this.handle.datasync();
    } catch (error) {
      // Cut off whatever part was written, so the next batch does not land behind a torn line. If even that
      // fails, appending more could put acknowledged batches behind garbage: refuse until reopened.
      try {
        await this.handle.truncate(this.bytes);
      } catch {
        this.broken = new Error(
          `The journal ${this.path} could not be repaired after a failed write; restart the app.`,
        );
      }
      throw error;
    }
    this.bytes += buffer.length;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/** The JSON of an entry's `ops` made already, as its changes came (see {@link journalEntry}). */
const opsJsonOf = new WeakMap<JournalEntry<unknown>, string>();

/**
 * A journal entry whose ops' JSON (`opsJson`, exactly `JSON.stringify(ops)`) was made already: a batch of a
 * large import (some thousands of events) is then not turned into text in one piece when it is written, which
 * held the server for tens of milliseconds (issue 26); each change was encoded as it came, in its own turn.
 */
export function journalEntry<Op>(seq: number, ops: Op[], opsJson: string): JournalEntry<Op> {
  const entry = { seq, ops };
  opsJsonOf.set(entry, opsJson);
  return entry;
}

function encodeLine(entry: JournalEntry<unknown>): string {
  const opsJson = opsJsonOf.get(entry);
  const json = opsJson === undefined ? JSON.stringify(entry) : `{"seq":${entry.seq},"ops":${opsJson}}`;
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/**
 * Reads the complete, checksum-valid lines. `validBytes` ends after the last of them: what follows is a torn
 * tail (a write a crash interrupted, never acknowledged). Bad lines before an intact one are `damage`; in a
 * `complete` journal (one rotated away after its last write) a bad end is damage too.
 */
export function parseJournal<Op>(
  content: Buffer,
  { complete = false }: { complete?: boolean } = {},
): {
  entries: JournalEntry<Op>[];
  validBytes: number;
  damage: JournalDamage | null;
} {
  const entries: JournalEntry<Op>[] = [];
  let offset = 0;
  let validBytes = 0;
  const damage: JournalDamage = { lines: 0, bytes: 0 };
  /** Bad lines since the last intact one: damage if an intact line follows, else the torn tail. */
  const pending: JournalDamage = { lines: 0, bytes: 0 };
  while (offset < content.length) {
    const newline = content.indexOf(0x0a, offset);
    if (newline < 0) break;
    const entry = decodeLine<Op>(content.subarray(offset, newline).toString('utf8'));
    if (entry) {
      damage.lines += pending.lines;
      damage.bytes += pending.bytes;
      pending.lines = pending.bytes = 0;
      entries.push(entry);
      validBytes = newline + 1;
    } else {
      pending.lines += 1;
      pending.bytes += newline + 1 - offset;
    }
    offset = newline + 1;
  }
  if (complete && validBytes < content.length) {
    damage.lines += pending.lines + (offset < content.length ? 1 : 0);
    damage.bytes += content.length - validBytes;
  }
  return { entries, validBytes, damage: damage.lines > 0 ? damage : null };
}

/** One journal line's batch, or null when its checksum, JSON or shape is wrong. */
function decodeLine<Op>(line: string): JournalEntry<Op> | null {
  const match = /^([0-9a-f]{8}) (.*)$/s.exec(line);
  if (!match || crc32(match[2]!).toString(16).padStart(8, '0') !== match[1]) return null;
  try {
    const entry = JSON.parse(match[2]!) as JournalEntry<Op>;
    return Number.isInteger(entry.seq) && Array.isArray(entry.ops) ? entry : null;
  } catch {
    return null;
  }
}

/** Writes all of `buffer` (a full disk can make `write` take only part of it without failing). */
export async function writeFully(handle: FileHandle, buffer: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset, null);
    if (bytesWritten <= 0)
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    offset += bytesWritten;
  }
}
