import type { CalendarStore } from '../../store/store';
import { ApiError } from '../errors';
import {
  importAnswerSchema,
  importHistorySchema,
  importJobRequestSchema,
  importJobStatusSchema,
  importRequestSchema,
  importUndoAnswerSchema,
  type ImportRequest,
} from '../../../shared/schemas/imports';
import { importFile, type ImportOptions, type ImportResult } from '../../exchange/importFile';
import { ImportError, ImportTooLargeError } from '../../exchange/errors';
import { importHistoryOf } from '../../exchange/importHistory';
import { ImportJobs } from '../../exchange/importJobs';
import { undoImport, ImportUndoRefused } from '../../exchange/importUndo';
import { adminEndpoint, adminRoute, bodyOf, parse } from './adminEndpoints';
import { jsonBytesInSlices } from '../present/jsonBytes';
import type { BareRequest, RouteDef } from './table';

/**
 * A file with problems: 400 `import_invalid`, each problem with its line in `data.problems`; one whose repeating
 * events would make too many events: 400 `import_too_large`, with both numbers in `data` as well.
 */
function invalidFile(error: unknown): never {
  if (error instanceof ImportTooLargeError)
    throw new ApiError(400, 'import_too_large', error.message, {
      problems: error.problems,
      occurrences: error.occurrences,
      budget: error.budget,
    });
  if (!(error instanceof ImportError)) throw error;
  throw new ApiError(400, 'import_invalid', error.message, { problems: error.problems });
}

const BUSY_MESSAGE =
  'Another import is running: wait until it has finished (its progress is at import-jobs/{id}), then import again.';

/**
 * Imports in the admin namespace (administrators only): `import` (apply, or preview with dry_run),
 * `import-jobs` (in the background, with progress), `imports` (the history) and `imports/{id}/undo`.
 * One import at a time: a second one while a job runs is refused (409), a preview is not.
 */
export function importRoutes({ store }: { store: CalendarStore }): RouteDef[] {
  const jobs = new ImportJobs();
  // Read now, at the server's start: an import a crash caught mid-write is settled before any new edit.
  importHistoryOf(store);
  const run = (request: BareRequest, body: ImportRequest, options: ImportOptions): Promise<ImportResult> =>
    importFile(store, body.file_name, body.content, request.now, request.caller!, {
      dayFirst: body.day_first,
      ...options,
    });
  const refuseWhileBusy = () => {
    if (jobs.busy) throw new ApiError(409, 'calendar_desk_import_running', BUSY_MESSAGE);
  };

  return [
    adminRoute('/import', [
      adminEndpoint(
        ['POST'],
        'Import a CSV, iCalendar or JSON dump file, or preview the import (dry_run)',
        async (request) => {
          const body = parse(importRequestSchema, bodyOf(request));
          if (!body.dry_run) refuseWhileBusy();
          const result = await run(request, body, { dryRun: body.dry_run }).catch(invalidFile);
          return { body: await jsonBytesInSlices(result) };
        },
        { body: importRequestSchema, answer: importAnswerSchema },
      ),
    ]),
    adminRoute('/import-jobs', [
      adminEndpoint(
        ['POST'],
        'Start an import in the background',
        (request) => {
          const body = parse(importJobRequestSchema, bodyOf(request));
          refuseWhileBusy();
          const status = jobs.start((onEntry) => run(request, body, { onEntry }));
          return { status: 202, headers: { Location: `import-jobs/${status.id}` }, body: status };
        },
        { body: importJobRequestSchema, answer: importJobStatusSchema, status: '202' },
      ),
    ]),
    adminRoute('/import-jobs/:id', [
      adminEndpoint(
        ['GET'],
        'Progress of an import job',
        async (request) => {
          const status = jobs.status(String(request.raw.id));
          if (!status)
            throw new ApiError(
              404,
              'calendar_desk_import_job_not_found',
              'No such import job (jobs are forgotten when the server restarts; the import history is not).',
            );
          return { body: await jsonBytesInSlices(status) };
        },
        { answer: importJobStatusSchema },
      ),
    ]),
    adminRoute('/imports', [
      adminEndpoint(
        ['GET'],
        'The last imports, newest first',
        () => ({ body: importHistoryOf(store).list() }),
        {
          answer: importHistorySchema,
        },
      ),
    ]),
    adminRoute('/imports/:id/undo', [
      adminEndpoint(
        ['POST'],
        'Undo an import: its records back as they were, the ones it created to the trash',
        async (request) => {
          refuseWhileBusy();
          try {
            return { body: await undoImport(store, String(request.raw.id), request.now) };
          } catch (error) {
            if (!(error instanceof ImportUndoRefused)) throw error;
            throw new ApiError(error.status, error.code, error.message);
          }
        },
        { answer: importUndoAnswerSchema },
      ),
    ]),
  ];
}
