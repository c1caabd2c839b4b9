import { ApiError } from '../../api/client';
import type { ImportAction, ImportRow } from '../../stores/imports';

/** The files the Import screen takes, by their name's ending (the server decides by content as well). */
export type ImportFileKind = 'ics' | 'csv' | 'json';

export function fileKindOf(name: string): ImportFileKind | null {
  const extension = /\.([^.]+)$/.exec(name.toLowerCase())?.[1];
  if (extension === 'ics' || extension === 'ical') return 'ics';
  if (extension === 'csv') return 'csv';
  if (extension === 'json') return 'json';
  return null;
}

/** What the preview's counts say: one number per action. */
export function countActions(rows: readonly ImportRow[]): Record<ImportAction, number> {
  const counts: Record<ImportAction, number> = { create: 0, update: 0, unchanged: 0, skip: 0, trash: 0 };
  for (const row of rows) counts[row.action] += 1;
  return counts;
}

/**
 * Rows needing attention come first (skipped ones say why; then what goes to the trash), then what is
 * written, then what stays as it is; within each, in the file's order.
 */
const ATTENTION: Record<ImportAction, number> = { skip: 0, trash: 1, create: 2, update: 3, unchanged: 4 };

export function rowsForReview(rows: readonly ImportRow[]): ImportRow[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => ATTENTION[a.row.action] - ATTENTION[b.row.action] || a.index - b.index)
    .map(({ row }) => row);
}

export interface ImportProblem {
  line: number;
  message: string;
}

/** The problems of a file the server refused (`import_invalid`), each with its line; else none. */
export function problemsOf(error: unknown): ImportProblem[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.data.problems)) return [];
  return (error.data.problems as unknown[]).flatMap((problem) => {
    const { line, message } = (problem ?? {}) as { line?: unknown; message?: unknown };
    return typeof message === 'string' ? [{ line: typeof line === 'number' ? line : 0, message }] : [];
  });
}

/** Percent of a job done, for the progress bar (0 while the total is not known). */
export function percentDone(done: number, total: number): number {
  return total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
}

/**
 * How many rows of the last refresh of an address had each action: the server keeps them (`row_counts`) instead
 * of the rows themselves. Null when it kept none (never refreshed, or an older answer).
 */
export function lastRefreshCounts(
  lastResult: Record<string, unknown> | null,
): Record<ImportAction, number> | null {
  const counts = lastResult?.row_counts as Partial<Record<ImportAction, unknown>> | undefined;
  if (!counts || typeof counts !== 'object') return null;
  const number = (value: unknown) => (typeof value === 'number' ? value : 0);
  return {
    create: number(counts.create),
    update: number(counts.update),
    unchanged: number(counts.unchanged),
    skip: number(counts.skip),
    trash: number(counts.trash),
  };
}
