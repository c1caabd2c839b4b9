import { randomBytes, timingSafeEqual } from 'node:crypto';
import { copyFile, link, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileDurably } from '../../store/durableJsonFile';
import { queueFileWrite } from '../../store/fileWriteQueue';
import { describeWriteFailure, StorageUnavailableError, storageRefusalOf } from '../../store/storageRefusal';

/**
 * The secret in the feed addresses (`/feeds/<secret>/…`). Calendar apps cannot send credentials, so whoever
 * knows the address reads the published calendar: the secret is random (256 bits), kept in its own file of the
 * data folder (mode 0600, never in dumps or sync), compared in constant time, and can be revoked or replaced.
 */
export const FEED_SECRET_FILE = 'feeds.json';

const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const feedFileSchema = z.object({
  /** null: revoked, no feed answers until a new secret is made. */
  secret: z.string().regex(SECRET_PATTERN).nullable(),
  changedUtc: z.string(),
});
type FeedFile = z.infer<typeof feedFileSchema>;

export class FeedSecretError extends Error {
  readonly code = 'FEED_SECRET_UNREADABLE';
}

/** The feeds' state as one change left it: what an answer to that change shows. */
export interface FeedState {
  /** null: revoked. */
  readonly current: string | null;
  readonly changedUtc: string;
}

const newSecret = () => randomBytes(32).toString('base64url');

/**
 * The feed secret of one data folder, read once and kept in memory; every change is written durably first.
 * Changes are written one at a time, in the order they came (`queueFileWrite`), and memory takes each once
 * it is on disk: the last answer given is what the file holds, and what the next start reads.
 */
export class FeedSecret {
  private state: FeedFile | null = null;
  private recovered: string | null = null;

  private constructor(private readonly file: string) {}

  /**
   * Reads the folder's secret; a folder without one gets a new one (feeds are on until revoked). A damaged
   * file is set aside (`feeds.json.damaged-<time>`) and the feeds start revoked, with a {@link notice}: the
   * file may have held a revocation, so no address may answer again until someone makes new ones.
   */
  static async open(dataDir: string, now: Date = new Date()): Promise<FeedSecret> {
    const secret = new FeedSecret(join(dataDir, FEED_SECRET_FILE));
    const text = await readFile(secret.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw new FeedSecretError(
        `The feed secret file ${secret.file} cannot be read (${error.code ?? error.message}): give yourself ` +
          'read permission on it and start again.',
      );
    });
    if (text === null) {
      await secret.write((changedUtc) => ({ secret: newSecret(), changedUtc }), now);
      return secret;
    }
    let parsed: ReturnType<typeof feedFileSchema.safeParse>;
    try {
      parsed = feedFileSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = feedFileSchema.safeParse(null);
    }
    if (parsed.success) {
      secret.state = parsed.data;
      return secret;
    }
    const aside = `${secret.file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
    // Kept aside as a second name first, then replaced by the revoked state: a failed write leaves the damaged
    // file where it was, so the next start finds it again rather than no file (which would mean new addresses).
    await link(secret.file, aside)
      .catch(() => copyFile(secret.file, aside))
      .catch((error: NodeJS.ErrnoException) => {
        throw new FeedSecretError(
          `The feed secret file ${secret.file} is damaged and could not be set aside (${error.code ?? error.message}). ` +
            'Delete it and start again: the feeds get new addresses, which calendar apps must subscribe to again.',
        );
      });
    await secret.write((changedUtc) => ({ secret: null, changedUtc }), now);
    secret.recovered =
      `The feed secret file was damaged (kept as ${aside}): the calendar feeds are off. Make new addresses in ` +
      'Settings, Calendar feeds (or run: calendar-desk feeds --regenerate) and subscribe calendar apps again.';
    return secret;
  }

  /** The current secret, or null while the feeds are revoked. */
  get current(): string | null {
    return this.state?.secret ?? null;
  }

  get changedUtc(): string {
    return this.state?.changedUtc ?? '';
  }

  /** Said while the feeds are off because this start found the file damaged (until new addresses are made). */
  get notice(): string | null {
    return this.recovered;
  }

  /** Whether `candidate` is the current secret (constant time: the answer leaks nothing about near misses). */
  matches(candidate: string): boolean {
    const secret = this.current;
    if (secret === null || !SECRET_PATTERN.test(candidate)) return false;
    return timingSafeEqual(Buffer.from(candidate), Buffer.from(secret));
  }

  /** A new secret: the old addresses stop answering. The state it made (later changes may follow). */
  regenerate(now: Date = new Date()): Promise<FeedState> {
    return this.write((changedUtc) => ({ secret: newSecret(), changedUtc }), now);
  }

  /** No secret: every feed address answers 404 until {@link regenerate}. */
  revoke(now: Date = new Date()): Promise<FeedState> {
    return this.write((changedUtc) => ({ secret: null, changedUtc }), now);
  }

  /**
   * Writes the state `make` gives, after every earlier change is on disk. The change time never goes back
   * nor repeats (two changes in one millisecond, a clock set back): the newest answer has the latest time.
   */
  private write(make: (changedUtc: string) => FeedFile, now: Date = new Date()): Promise<FeedState> {
    return queueFileWrite(this.file, async () => {
      const previous = this.state ? Date.parse(this.state.changedUtc) : Number.NaN;
      const at = Number.isNaN(previous) || now.getTime() > previous ? now.getTime() : previous + 1;
      const next = make(new Date(at).toISOString());
      // writeFileDurably creates its files with mode 0600: the secret is readable by this user only.
      await writeFileDurably(this.file, `${JSON.stringify(next)}\n`).catch((error: unknown) => {
        // A full or read-only disk: said as the calendar's own writes say it (503, what to do); the addresses
        // stay as they were.
        if (!storageRefusalOf(error)) throw error;
        throw new StorageUnavailableError(
          `could not save the feed addresses: ${describeWriteFailure(error, dirname(this.file))}`,
        );
      });
      this.state = next;
      this.recovered = null;
      return { current: next.secret, changedUtc: next.changedUtc };
    });
  }
}
