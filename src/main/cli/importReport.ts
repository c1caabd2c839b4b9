import type { ImportHistoryEntry, ImportRow, ImportUndoAnswer } from '../../shared/schemas/imports';

/*
 * What `calendar-desk import --dry-run`, `imports` and `imports undo` print: the same words the Import screen
 * shows, in lines for a terminal.
 */

const SHOWN_ROWS = 20;
const KIND_WORD = { events: 'event', venues: 'venue', organizers: 'organizer' } as const;

/** One row as a line: where it is in the file, what happens, to what. */
function rowLine(row: ImportRow): string {
  const where = row.line ? `line ${row.line}: ` : '';
  const why = row.reason ? ` (${row.reason})` : '';
  return `  ${where}${row.action} ${KIND_WORD[row.kind]} "${row.title}"${why}`;
}

/** The preview of an import: a count per action, then the rows that would change something or be skipped. */
export function previewReport(file: string, rows: ImportRow[]): string {
  const count = (action: ImportRow['action']) => rows.filter((row) => row.action === action).length;
  const attention = rows.filter((row) => row.action !== 'unchanged');
  const more = attention.length > SHOWN_ROWS ? [`  … and ${attention.length - SHOWN_ROWS} more`] : [];
  return [
    `Preview of ${file} (nothing was written): ${count('create')} to create, ${count('update')} to update, ` +
      `${count('unchanged')} unchanged, ${count('skip')} skipped, ${count('trash')} to move to the trash.`,
    ...attention.slice(0, SHOWN_ROWS).map(rowLine),
    ...more,
    attention.length > 0
      ? 'Run the same command without --dry-run to import.'
      : 'Importing it would change nothing.',
  ].join('\n');
}

/** The import history, newest first. */
export function historyReport(entries: ImportHistoryEntry[]): string {
  if (entries.length === 0) return 'No imports yet (the last 20 are kept, to be undone).';
  return entries
    .map(
      (entry) =>
        `${entry.id}  ${entry.at.slice(0, 16).replace('T', ' ')} UTC  ${entry.file_name}: ` +
        `${entry.created} created, ${entry.updated} updated, ${entry.trashed} trashed` +
        (entry.undone ? '  (undone)' : ''),
    )
    .join('\n');
}

/** What an undo did, and which records it left as they are now. */
export function undoReport(id: string, answer: ImportUndoAnswer): string {
  const kept = answer.kept.map(
    (record) => `  ${KIND_WORD[record.kind]} #${record.id} "${record.title}" (changed since the import)`,
  );
  return [
    `Undid the import ${id}: ${answer.restored} record(s) put back as they were, ${answer.trashed} it had ` +
      'created moved to the trash (restorable from there).',
    ...(kept.length > 0 ? ['Left as they are now:', ...kept] : []),
  ].join('\n');
}
