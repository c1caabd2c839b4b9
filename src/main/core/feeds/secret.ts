import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileDurably } from '../../store/durableJsonFile';
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

const newSecret = () => randomBytes(32).toString('base64url');

/** The feed secret of one data folder, read once and kept in memory; every change is written durably first. */
export class FeedSecret {
  private state: FeedFile | null = null;

  private constructor(private readonly file: string) {}

  /** Reads the folder's secret; a folder without one gets a new one (feeds are on until revoked). */
  static async open(dataDir: string, now: Date = new Date()): Promise<FeedSecret> {
    const secret = new FeedSecret(join(dataDir, FEED_SECRET_FILE));
    const text = await readFile(secret.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (text === null) {
      await secret.write({ secret: newSecret(), changedUtc: now.toISOString() });
      return secret;
    }
    let parsed: ReturnType<typeof feedFileSchema.safeParse>;
    try {
      parsed = feedFileSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = feedFileSchema.safeParse(null);
    }
    if (!parsed.success)
      throw new FeedSecretError(
        `The feed secret file ${secret.file} is damaged. Delete it and start again: the feeds get new ` +
          'addresses, which calendar apps must subscribe to again.',
      );
    secret.state = parsed.data;
    return secret;
  }

  /** The current secret, or null while the feeds are revoked. */
  get current(): string | null {
    return this.state?.secret ?? null;
  }

  get changedUtc(): string {
    return this.state?.changedUtc ?? '';
  }

  /** Whether `candidate` is the current secret (constant time: the answer leaks nothing about near misses). */
  matches(candidate: string): boolean {
    const secret = this.current;
    if (secret === null || !SECRET_PATTERN.test(candidate)) return false;
    return timingSafeEqual(Buffer.from(candidate), Buffer.from(secret));
  }

  /** A new secret: the old addresses stop answering. */
  async regenerate(now: Date = new Date()): Promise<string> {
    const secret = newSecret();
    await this.write({ secret, changedUtc: now.toISOString() });
    return secret;
  }

  /** No secret: every feed address answers 404 until {@link regenerate}. */
  async revoke(now: Date = new Date()): Promise<void> {
    await this.write({ secret: null, changedUtc: now.toISOString() });
  }

  private async write(next: FeedFile): Promise<void> {
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
  }
}
