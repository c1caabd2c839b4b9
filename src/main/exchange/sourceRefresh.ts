import type { CalendarStore } from '../store/store';
import type { Caller } from '../core/capabilities';
import { fetchCalendar, requestUrl, type FetchLimits } from './calendarFetch';
import { importFile, type ImportResult } from './importFile';
import { ImportSources, validatorsOf, type StoredImportSource } from './importSources';
import { forgetSource } from './sourceEvents';
import type { ImportSourceInput } from '../../shared/schemas/importSources';

/** What a refresh answers: the import's answer, with the address it came from. */
export type SourceRefreshAnswer = ImportResult & {
  source_id: string;
  /** The address answered "not modified" (304) to the last refresh's validators: nothing was read or written. */
  not_modified?: true;
};

export interface SourceWork {
  store: CalendarStore;
  sources: ImportSources;
  /** Who refreshes: the events are written as this user, under the rules of the API's writes. */
  caller: Caller;
  now: Date;
  limits?: FetchLimits;
}

/** A second address that is one already followed. */
export class ImportSourceExistsError extends Error {
  readonly code = 'IMPORT_SOURCE_EXISTS';
  constructor(readonly existing: StoredImportSource) {
    super(
      `This address is already followed as "${existing.name}" (id ${existing.id}): refresh that one instead.`,
    );
  }
}

/**
 * The name an address's import goes by in messages and the import history: the source's name and its site,
 * never its path (where a secret address keeps its secret), nor a slash (the history keeps a file's base name).
 */
const fileNameOf = (source: StoredImportSource) =>
  `${source.name} (${requestUrl(source.url).host})`.replace(/[\\/]/g, '-');

/**
 * The last result kept with the source: the answer without its rows (a large calendar has thousands), but
 * with how many rows had each action (`row_counts.trash`: events moved to the trash).
 */
function summaryOf(answer: SourceRefreshAnswer): Record<string, unknown> {
  const { rows, ...summary } = answer;
  const counts: Record<string, number> = { create: 0, update: 0, unchanged: 0, skip: 0, trash: 0 };
  for (const row of rows) counts[row.action] = (counts[row.action] ?? 0) + 1;
  return { ...summary, row_counts: counts };
}

/** The calendar's own name (X-WR-CALNAME), unfolded and unescaped, or ''. */
export function calendarNameOf(text: string): string {
  const unfolded = text.slice(0, 64 * 1024).replace(/\r?\n[ \t]/g, '');
  const match = /^X-WR-CALNAME(?:;[^:\r\n]*)?:(.*)$/im.exec(unfolded);
  return (match?.[1] ?? '')
    .replace(/\\([,;\\])/g, '$1')
    .replace(/\\n/gi, ' ')
    .trim()
    .slice(0, 200);
}

/**
 * Fetches the address of `source` and imports it as one import (one store change): new and changed events
 * written, unchanged ones not touched, events it brought that left it moved to the trash. A 304 answer writes
 * nothing. The source keeps when it was refreshed and how it went; a failure is kept as its `last_error` and
 * thrown (a {@link CalendarFetchError} or an ImportError): nothing of the calendar changed.
 */
export async function refreshSource(
  work: SourceWork,
  source: StoredImportSource,
  fetchedText?: { text: string; etag: string | null; lastModified: string | null },
): Promise<SourceRefreshAnswer> {
  const { store, sources, caller, now } = work;
  const at = now.toISOString();
  try {
    const fetched =
      fetchedText !== undefined
        ? { changed: true as const, ...fetchedText }
        : await fetchCalendar(source.url, validatorsOf(source), work.limits);
    if (!fetched.changed) {
      const answer: SourceRefreshAnswer = {
        format: 'ics',
        events: 0,
        venues: 0,
        organizers: 0,
        records: 0,
        rows: [],
        source_id: source.id,
        not_modified: true,
      };
      await sources.update(source.id, { lastRefreshUtc: at, lastError: null, lastErrorCode: null });
      return answer;
    }
    const result = await importFile(store, fileNameOf(source), fetched.text, now, caller, {
      dayFirst: source.dayFirst,
      sourceId: source.id,
      format: 'ics',
    });
    const answer: SourceRefreshAnswer = { ...result, source_id: source.id };
    await sources.update(source.id, {
      lastRefreshUtc: at,
      lastResult: summaryOf(answer),
      lastError: null,
      lastErrorCode: null,
      etag: fetched.etag,
      lastModified: fetched.lastModified,
    });
    return answer;
  } catch (error) {
    // Kept for the list when it can be: the refresh's own failure is what the caller must hear.
    const code = (error as { code?: unknown }).code;
    await sources
      .update(source.id, {
        lastRefreshUtc: at,
        lastError: (error as Error).message,
        lastErrorCode: typeof code === 'string' ? code.toLowerCase() : null,
      })
      .catch(() => undefined);
    throw error;
  }
}

/**
 * Follows a new address: fetched first (an address that gives no calendar is not remembered), remembered, then
 * imported. When the import fails the address is forgotten again: nothing is kept of a failed first refresh.
 */
export async function addSource(
  work: SourceWork,
  input: ImportSourceInput,
): Promise<{ source: StoredImportSource; answer: SourceRefreshAnswer }> {
  const existing = await work.sources.withAddress(input.url);
  if (existing) throw new ImportSourceExistsError(existing);
  const fetched = await fetchCalendar(input.url, null, work.limits);
  if (!fetched.changed) throw new Error('a first fetch cannot be "not modified"');
  const name = input.name ?? (calendarNameOf(fetched.text) || requestUrl(input.url).hostname);
  const source = ImportSources.create(input.url, name, input.day_first ?? false, work.now);
  await work.sources.save(source);
  try {
    const answer = await refreshSource(work, source, fetched);
    return { source: (await work.sources.get(source.id)) ?? source, answer };
  } catch (error) {
    await work.sources.remove(source.id).catch(() => undefined);
    throw error;
  }
}

/** Stops following an address: it is forgotten, the events it brought stay as they are. */
export async function removeSource(
  store: CalendarStore,
  sources: ImportSources,
  source: StoredImportSource,
): Promise<void> {
  await sources.remove(source.id);
  await forgetSource(store, source.id);
}
