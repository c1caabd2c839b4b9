import { z } from 'zod';

/**
 * Imports in the admin namespace `calendar-desk/v1` (issue 15 item 2), as zod schemas shared by the server,
 * the CLI and the desktop Import screen: `POST import` (apply or preview), `POST import-jobs` and
 * `GET import-jobs/{id}` (progress), `GET imports` and `POST imports/{id}/undo` (history and undo).
 */

/** Body of `POST import`: a file's name (its extension tells the format) and its text. */
export const importRequestSchema = z
  .object({
    file_name: z.string().min(1).max(255),
    content: z.string(),
    /** CSV: `05/06/2026` is 5 June (day first); without it, 6 May as PHP's strtotime reads it. */
    day_first: z.boolean().optional(),
    /** True: nothing is written, the answer says what the import would do. */
    dry_run: z.boolean().optional(),
  })
  .meta({ id: 'ImportRequest', description: 'A file to import (or preview, with dry_run)' });
export type ImportRequest = z.infer<typeof importRequestSchema>;

/** Body of `POST import-jobs`: the same, always applied. */
export const importJobRequestSchema = importRequestSchema
  .omit({ dry_run: true })
  // Refused rather than ignored: a client asking a job for a preview must not get a real import.
  .extend({
    dry_run: z.never({ message: 'a job always imports: preview with POST import and dry_run' }).optional(),
  })
  .meta({ id: 'ImportJobRequest', description: 'A file to import in the background' });
export type ImportJobRequest = z.infer<typeof importJobRequestSchema>;

export const IMPORT_KINDS = ['events', 'venues', 'organizers'] as const;
export const importKindSchema = z.enum(IMPORT_KINDS);
export type ImportKind = z.infer<typeof importKindSchema>;

export const IMPORT_ACTIONS = ['create', 'update', 'unchanged', 'skip', 'trash'] as const;

/** What an import does (or would do) with one entry of the file. */
export const importRowSchema = z.object({
  /** CSV: the row's line; .ics: the line of its BEGIN:VEVENT; 0 when the format has no lines (JSON dump). */
  line: z.number().int().nonnegative(),
  kind: importKindSchema,
  title: z.string(),
  action: z.enum(IMPORT_ACTIONS),
  /** Why a row is skipped (or trashed), in words for the person importing. */
  reason: z.string().optional(),
});
export type ImportRow = z.infer<typeof importRowSchema>;

/** A CSV row that named a record already here (re-import), updated instead of duplicated. */
export const importMatchSchema = z.object({
  line: z.number(),
  kind: z.enum(['event', 'venue', 'organizer']),
  id: z.number(),
  name: z.string(),
  changed: z.boolean(),
});

/** The answer of an import, applied or previewed. */
export const importAnswerSchema = z
  .object({
    format: z.enum(['json', 'ics', 'csv']),
    events: z.number(),
    venues: z.number(),
    organizers: z.number(),
    records: z.number(),
    matchedByUid: z.number().optional(),
    unchangedByUid: z.number().optional(),
    matched: z.array(importMatchSchema).optional(),
    /** Each entry of the file and what became (or would become) of it, in the file's order. */
    rows: z.array(importRowSchema),
    /** An applied import that wrote something: the id to undo it by (`POST imports/{id}/undo`). */
    import_id: z.string().optional(),
    /** True when this answer is a preview: nothing was written. */
    dry_run: z.boolean().optional(),
  })
  .meta({ id: 'ImportAnswer', description: 'What an import did (or, previewed, would do), row by row' });
export type ImportAnswer = z.infer<typeof importAnswerSchema>;

/** One problem of a refused file (the `data.problems` of a 400 `import_invalid`). */
export const importProblemSchema = z.object({ line: z.number(), message: z.string() });

/** `GET import-jobs/{id}`: an import running in the background. */
export const importJobStatusSchema = z
  .object({
    id: z.string(),
    state: z.enum(['running', 'done', 'failed']),
    /** Entries of the file handled so far, of `total`. */
    done: z.number(),
    total: z.number(),
    result: importAnswerSchema.nullable(),
    error: z
      .object({ code: z.string(), message: z.string(), problems: z.array(importProblemSchema).optional() })
      .nullable(),
  })
  .meta({ id: 'ImportJobStatus', description: 'An import running in the background, and its result' });
export type ImportJobStatus = z.infer<typeof importJobStatusSchema>;

/** One import of `GET imports` (newest first; the last 20 are kept). */
export const importHistoryEntrySchema = z.object({
  id: z.string(),
  /** When it was applied (ISO 8601, UTC). */
  at: z.string(),
  file_name: z.string(),
  /** The import address it came from (`import-sources`), null for a file. */
  source_id: z.string().nullable(),
  created: z.number(),
  updated: z.number(),
  trashed: z.number(),
  undone: z.boolean(),
});
export type ImportHistoryEntry = z.infer<typeof importHistoryEntrySchema>;
export const importHistorySchema = z
  .array(importHistoryEntrySchema)
  .meta({ id: 'ImportHistory', description: 'The last imports, newest first' });

/** A record an undo left as it is now: it was changed again after the import. */
export const keptRecordSchema = z.object({ kind: importKindSchema, id: z.number(), title: z.string() });

/** The answer of `POST imports/{id}/undo`: how many records were put back, how many went to the trash. */
export const importUndoAnswerSchema = z
  .object({
    restored: z.number(),
    trashed: z.number(),
    kept: z.array(keptRecordSchema),
  })
  .meta({ id: 'ImportUndo', description: 'What an undo of an import put back, trashed and kept' });
export type ImportUndoAnswer = z.infer<typeof importUndoAnswerSchema>;
