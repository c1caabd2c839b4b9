import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileDurably } from '../store/durableJsonFile';
import { queueFileWrite } from '../store/fileWriteQueue';
import { describeWriteFailure, StorageUnavailableError } from '../store/storageRefusal';
import { maskedAddress, requestUrl, type FetchValidators } from './calendarFetch';
import type { ImportSourceView } from '../../shared/schemas/importSources';

export type { ImportSourceView };

/*
 * The import addresses the calendar follows (a Google Calendar secret address, another site's feed). A
 * secret address is a password: whoever has it reads that calendar. So the addresses live in their own file
 * of the data folder, like the feeds' secret (mode 0600, never in dumps, exports or sync), and everything
 * shown of them — lists, errors, logs — is the masked form (`https://calendar.google.com/…`).
 */
export const IMPORT_SOURCES_FILE = 'import-sources.json';

const storedSourceSchema = z.object({
  id: z.string(),
  /** The address as given (webcal:// kept: it is fetched over https). Secret: never shown unmasked but on request. */
  url: z.string(),
  name: z.string(),
  dayFirst: z.boolean(),
  createdUtc: z.string(),
  lastRefreshUtc: z.string().nullable(),
  /** The answer of the last refresh that worked (an import answer). */
  lastResult: z.record(z.string(), z.unknown()).nullable(),
  /** Why the last refresh failed (null: it worked). */
  lastError: z.string().nullable(),
  /** The code of that failure (`import_too_large`, `source_missing`…); absent in files of older versions. */
  lastErrorCode: z.string().nullable().optional(),
  /** The validators of the last calendar imported, for a conditional request (304: nothing changed). */
  etag: z.string().nullable(),
  lastModified: z.string().nullable(),
});
export type StoredImportSource = z.infer<typeof storedSourceSchema>;

const sourcesFileSchema = z.object({ sources: z.array(storedSourceSchema) });

/** The import address file could not be read: the message says what to do. */
export class ImportSourcesFileError extends Error {
  readonly code = 'IMPORT_SOURCES_UNREADABLE';
}

export function presentSource(source: StoredImportSource): ImportSourceView {
  return {
    id: source.id,
    url: maskedAddress(source.url),
    name: source.name,
    day_first: source.dayFirst,
    created_utc: source.createdUtc,
    last_refresh: source.lastRefreshUtc,
    last_result: source.lastResult,
    last_error: source.lastError,
    last_error_code: source.lastErrorCode ?? null,
  };
}

/** A refresh refused because the calendar would create too many events: not retried by "refresh all". */
export const TOO_LARGE_CODE = 'import_too_large';

/**
 * Whether "refresh all" (`calendar-desk import-sources refresh` without an id) refreshes the address (issue 26):
 * not one whose last refresh was refused for the events it would create, since the same calendar would be
 * downloaded and counted again for nothing. It is refreshed again when the user refreshes it by its id (which
 * clears the mark if the calendar got smaller), or follows the address anew after removing it.
 */
export const inRefreshAll = (source: ImportSourceView): boolean => source.last_error_code !== TOO_LARGE_CODE;

export const validatorsOf = (source: StoredImportSource): FetchValidators => ({
  etag: source.etag,
  lastModified: source.lastModified,
});

/** The import addresses of one data folder: read once, every change written durably (0600) before it counts. */
export class ImportSources {
  private sources: StoredImportSource[] | null = null;

  constructor(private readonly dataDir: string) {}

  private get file(): string {
    return join(this.dataDir, IMPORT_SOURCES_FILE);
  }

  async list(): Promise<StoredImportSource[]> {
    if (this.sources) return this.sources;
    const text = await readFile(this.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw new ImportSourcesFileError(
        `The file of import addresses ${this.file} cannot be read (${error.code ?? error.message}): ` +
          'give yourself read permission on it.',
      );
    });
    if (text === null) return (this.sources = []);
    let parsed: ReturnType<typeof sourcesFileSchema.safeParse>;
    try {
      parsed = sourcesFileSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = sourcesFileSchema.safeParse(null);
    }
    if (!parsed.success)
      throw new ImportSourcesFileError(
        `The file of import addresses ${this.file} is damaged. Delete it and add the addresses again ` +
          '(the events they brought stay).',
      );
    return (this.sources = parsed.data.sources);
  }

  async get(id: string): Promise<StoredImportSource | undefined> {
    return (await this.list()).find((source) => source.id === id);
  }

  /** The source following `url` already (the same address, whatever its scheme's case or spaces). */
  async withAddress(url: string): Promise<StoredImportSource | undefined> {
    const wanted = sameAddressKey(url);
    return (await this.list()).find((source) => sameAddressKey(source.url) === wanted);
  }

  /** A new source (not yet saved: {@link save} it once its first refresh worked). */
  static create(url: string, name: string, dayFirst: boolean, now: Date): StoredImportSource {
    return {
      id: randomUUID(),
      url: url.trim(),
      name,
      dayFirst,
      createdUtc: now.toISOString(),
      lastRefreshUtc: null,
      lastResult: null,
      lastError: null,
      lastErrorCode: null,
      etag: null,
      lastModified: null,
    };
  }

  /** Adds or replaces `source` (by id). */
  save(source: StoredImportSource): Promise<void> {
    return this.change((sources) => [...sources.filter((one) => one.id !== source.id), source]);
  }

  /** Changes the saved source `id` (a source removed meanwhile stays removed). */
  update(id: string, change: Partial<StoredImportSource>): Promise<void> {
    return this.change((sources) =>
      sources.map((source) => (source.id === id ? { ...source, ...change } : source)),
    );
  }

  remove(id: string): Promise<void> {
    return this.change((sources) => sources.filter((source) => source.id !== id));
  }

  /** Changes one after the other: two refreshes finishing together must not lose each other's result. */
  private change(edit: (sources: StoredImportSource[]) => StoredImportSource[]): Promise<void> {
    return queueFileWrite(this.file, async () => {
      const next = edit(await this.list());
      // writeFileDurably creates its files with mode 0600: the addresses are readable by this user only.
      await writeFileDurably(this.file, `${JSON.stringify({ sources: next }, null, 1)}\n`).catch(
        (error: unknown) => {
          // A full or read-only disk: said as the calendar's own writes say it (503, what to do).
          throw new StorageUnavailableError(
            `could not save the import addresses: ${describeWriteFailure(error, this.dataDir)}`,
          );
        },
      );
      this.sources = next;
    });
  }
}

/** Two spellings of one address: webcal and https alike, the scheme and host in any case. */
function sameAddressKey(url: string): string {
  try {
    return requestUrl(url).href;
  } catch {
    return url.trim();
  }
}
