import type { CalendarStore } from '../../store/store';
import { ApiError } from '../errors';
import { CalendarFetchError, type FetchLimits } from '../../exchange/calendarFetch';
import { ImportError, ImportTooLargeError } from '../../exchange/errors';
import {
  ImportSources,
  ImportSourcesFileError,
  presentSource,
  type StoredImportSource,
} from '../../exchange/importSources';
import {
  addSource,
  ImportSourceExistsError,
  refreshSource,
  removeSource,
  type SourceWork,
} from '../../exchange/sourceRefresh';
import {
  importSourceInputSchema,
  importSourceViewSchema,
  sourceRefreshAnswerSchema,
} from '../../../shared/schemas/importSources';
import { adminEndpoint, adminRoute as route, bodyOf, parse } from './adminEndpoints';
import type { BareRequest, RouteDef } from './table';

/**
 * Why an address gave nothing, as an API error: the trouble is at the other site (502), with a code of our own
 * (`source_missing`, `source_not_calendar`…) and its HTTP status; a calendar the import cannot read is 502
 * `import_invalid` with its problems. The message names the address masked only.
 */
function sourceFailure(error: unknown): never {
  if (error instanceof CalendarFetchError)
    throw new ApiError(502, error.code, error.message, {
      // As a sync remote's failures: the form field it is about, and a failed connection's kind.
      field: 'url',
      source_status: error.status,
      ...(error.network ? { network: error.network } : {}),
    });
  if (error instanceof ImportTooLargeError)
    throw new ApiError(502, 'import_too_large', error.message, {
      problems: error.problems,
      occurrences: error.occurrences,
      budget: error.budget,
    });
  if (error instanceof ImportError)
    throw new ApiError(502, 'import_invalid', error.message, { problems: error.problems });
  if (error instanceof ImportSourcesFileError)
    throw new ApiError(503, 'import_sources_unreadable', error.message);
  if (error instanceof ImportSourceExistsError)
    throw new ApiError(409, 'import_source_exists', error.message, { id: error.existing.id });
  throw error;
}

/**
 * Import addresses (administrators only): `GET/POST /import-sources`, `GET/DELETE /import-sources/:id`,
 * `POST /import-sources/:id/refresh`. Lists show the addresses masked; `GET /import-sources/:id` alone
 * answers the whole address (`address`), for an administrator who needs to see or copy it again.
 */
export function importSourceRoutes({
  store,
  limits,
}: {
  store: CalendarStore;
  /** Time and size limits of fetching an address (tests shorten them). */
  limits?: FetchLimits;
}): RouteDef[] {
  const sources = new ImportSources(store.dataDir);
  /** Addresses being refreshed: a second refresh of one of them waits for none, it is refused. */
  const refreshing = new Set<string>();
  const workOf = (request: BareRequest): SourceWork => ({
    store,
    sources,
    caller: request.caller!,
    now: request.now,
    limits,
  });
  const sourceOf = async (request: BareRequest): Promise<StoredImportSource> => {
    const id = String(request.raw.id);
    const source = await sources.get(id).catch(sourceFailure);
    if (!source)
      throw new ApiError(
        404,
        'import_source_not_found',
        `There is no import address "${id}" (it may have been removed).`,
      );
    return source;
  };
  const once = async <T>(id: string, work: () => Promise<T>): Promise<T> => {
    if (refreshing.has(id))
      throw new ApiError(
        409,
        'import_source_busy',
        'This address is being refreshed already: wait for that refresh to finish.',
      );
    refreshing.add(id);
    try {
      return await work();
    } finally {
      refreshing.delete(id);
    }
  };

  return [
    route('/import-sources', [
      adminEndpoint(
        ['GET'],
        'List the import addresses (masked)',
        async () => ({ body: (await sources.list().catch(sourceFailure)).map(presentSource) }),
        { answer: importSourceViewSchema.array() },
      ),
      adminEndpoint(
        ['POST'],
        'Follow an import address (fetched and imported first)',
        async (request) => {
          const input = parse(importSourceInputSchema, bodyOf(request));
          const { source, answer } = await once(input.url.trim(), () =>
            addSource(workOf(request), input),
          ).catch(sourceFailure);
          return {
            status: 201,
            headers: { Location: `import-sources/${source.id}` },
            body: { ...presentSource(source), result: answer },
          };
        },
        { body: importSourceInputSchema, answer: importSourceViewSchema, status: '201' },
      ),
    ]),
    route('/import-sources/:id', [
      adminEndpoint(
        ['GET'],
        'One import address, with its whole address (`address`)',
        async (request) => {
          const source = await sourceOf(request);
          return { body: { ...presentSource(source), address: source.url } };
        },
        { answer: importSourceViewSchema },
      ),
      adminEndpoint(['DELETE'], 'Stop following an import address (its events stay)', async (request) => {
        const source = await sourceOf(request);
        await removeSource(store, sources, source);
        return { body: { deleted: true, previous: presentSource(source) } };
      }),
    ]),
    route('/import-sources/:id/refresh', [
      adminEndpoint(
        ['POST'],
        'Refresh an import address',
        async (request) => {
          const source = await sourceOf(request);
          return {
            body: await once(source.id, () => refreshSource(workOf(request), source)).catch(sourceFailure),
          };
        },
        { answer: sourceRefreshAnswerSchema },
      ),
    ]),
  ];
}
