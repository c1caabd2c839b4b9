import { matchesQuery, runEventQuery } from '../../core/eventQuery';
import type { StoredEvent } from '../../store/schema';
import { exportText, type ExportFormat } from '../../exchange/exportText';
import { exportArgs } from '../args/exportArgs';
import { archiveQueryOf } from '../args/archiveFilters';
import { administrators } from './permissions';
import { endpoint, type ApiRequest, type RouteDef } from './table';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  json: 'application/json; charset=utf-8',
  ics: 'text/calendar; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** e.g. `calendar-desk-2026-11-24.ics`, `calendar-desk-venues-2026-11-24.csv`, `calendar-desk-backup-….json`. */
function fileName(format: ExportFormat, kind: string, filtered: boolean, now: Date): string {
  const what =
    format === 'json' ? ['backup'] : [...(format === 'csv' ? [kind] : []), ...(filtered ? ['filtered'] : [])];
  return `${['calendar-desk', ...what, now.toISOString().slice(0, 10)].join('-')}.${format}`;
}

async function exportFile(request: ApiRequest<typeof exportArgs>) {
  const { args, store, now } = request;
  const format = args.format!;
  const kind = args.kind ?? 'events';
  // The dump is a backup of everything, and venue/organizer lists are whole lists: the filter picks events.
  const filtered = args.scope === 'filter' && format !== 'json' && (format === 'ics' || kind === 'events');
  const query = filtered ? archiveQueryOf(request).query : undefined;
  const events = query
    ? (await runEventQuery(query, store, { offset: 0, limit: Number.MAX_SAFE_INTEGER })).items
    : undefined;
  // A series in the .ics keeps only the dates the filter shows (a draft date is not in a published-only file).
  const includes = query ? (event: StoredEvent) => matchesQuery(event, query, store) : undefined;
  return {
    body: exportText(store, format, kind, now, events, includes),
    headers: {
      'Content-Type': CONTENT_TYPES[format],
      'Content-Disposition': `attachment; filename="${fileName(format, kind, filtered, now)}"`,
      // It holds drafts, private events and event passwords: kept by no cache.
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  };
}

/**
 * `GET calendar-desk/v1/export?format=json|ics|csv&kind=…&scope=all|filter&…` (the filters of `GET /events`):
 * the calendar as a file to download, as the CLI's `export` writes it. Administrators only: it holds drafts,
 * private events and passwords.
 */
export const exportRoutes: RouteDef[] = [
  {
    pattern: '/export',
    path: '/export',
    docPath: '/export',
    endpoints: [
      endpoint({
        methods: ['GET'],
        args: exportArgs,
        permission: administrators,
        handle: exportFile,
        doc: {
          summary:
            'The calendar as a file: JSON backup, iCalendar or CSV (everything or the filtered events)',
          responses: {
            '200': { description: 'The file (Content-Disposition: attachment), in the format asked for' },
          },
        },
      }),
    ],
  },
];
