import type { CalendarStore } from '../store/store';
import type { StoredEvent } from '../store/schema';
import { exportDump } from './jsonDump';
import { exportIcs } from './ics';
import { exportCsv, type CsvKind } from './csv';

export const EXPORT_FORMATS = ['json', 'ics', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * The export of a calendar in one of the formats (the CLI's `export` and the app's export route).
 * `events` (default: all) picks the events of an .ics or an events CSV; the JSON dump is always the whole
 * calendar (a backup to restore from), venue and organizer CSVs always every venue or organizer. In an .ics a
 * picked event brings its series, whose dates `includes` rejects are left out of the rule (EXDATE).
 */
export function exportText(
  store: CalendarStore,
  format: ExportFormat,
  kind: CsvKind,
  now: Date,
  events?: Iterable<StoredEvent>,
  includes?: (event: StoredEvent) => boolean,
): string {
  if (format === 'json') return `${JSON.stringify(exportDump(store, now), null, 1)}\n`;
  if (format === 'ics') return exportIcs(store, now, events, { includes });
  return exportCsv(store, kind, events);
}
