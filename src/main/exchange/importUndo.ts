import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CalendarStore } from '../store/store';
import type { StoredEvent, StoredOrganizer, StoredVenue } from '../store/schema';
import { nowUtc, trashedPost } from '../core/posts';
import type { ImportUndoAnswer } from '../../shared/schemas/imports';
import { digestOf, importHistoryOf, type Tracked } from './importHistory';
import { SLICE_MS } from '../core/timeSlices';

/** An undo refused: no such import, or it is undone already. `status` is the HTTP status that says so. */
export class ImportUndoRefused extends Error {
  constructor(
    readonly status: 404 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Imports whose undo is being written: a second undo meanwhile is refused as if it were done. */
const undoing = new WeakMap<CalendarStore, Set<string>>();

/**
 * Undoes the import `id`, a slice of records per store write (see below): every record it wrote is put back as it was before (every field;
 * a new revision), the records it created go to the trash (restorable). A record changed again since the
 * import is left as it is now, and listed in `kept`.
 */
export async function undoImport(store: CalendarStore, id: string, now: Date): Promise<ImportUndoAnswer> {
  const history = importHistoryOf(store);
  const entry = history.get(id);
  if (!entry)
    throw new ImportUndoRefused(
      404,
      'calendar_desk_import_not_found',
      `There is no import "${id}" to undo (the last 20 imports are kept).`,
    );
  const running = undoing.get(store) ?? new Set<string>();
  undoing.set(store, running);
  if (entry.undone || running.has(id))
    throw new ImportUndoRefused(
      409,
      'calendar_desk_import_undone',
      `The import of ${entry.file_name} (${entry.at}) is already undone.`,
    );
  running.add(id);
  try {
    const answer: ImportUndoAnswer = { restored: 0, trashed: 0, kept: [] };
    // A slice of records per store change (about SLICE_MS of work), the event loop free between two, so that
    // the undo of an import of 50,000 events does not hold the server for seconds (issue 26 item 3). Each
    // record is judged when its slice runs: one a user changed meanwhile is kept as it is, as before.
    let next = 0;
    // A few slices being written to disk at once (group commit writes them together), as an import's.
    const writing: Array<Promise<void>> = [];
    let failed: { error: unknown } | undefined;
    while (next < entry.records.length) {
      const written = store.mutate((tx) => {
        const put = (kind: Tracked['kind'], record: Tracked) => {
          if (kind === 'event') tx.putEvent(record as StoredEvent);
          else if (kind === 'venue') tx.putVenue(record as StoredVenue);
          else tx.putOrganizer(record as StoredOrganizer);
        };
        // A slice made while an earlier one waited (a change right after a start waits for the records to be
        // read) may find every record done by then.
        if (next >= entry.records.length) return;
        const started = performance.now();
        do {
          const written = entry.records[next++]!;
          const current = store[written.kind].get(written.id);
          if (!current || digestOf(current) !== written.after) {
            const title = current ? titleOf(current) : written.before ? titleOf(written.before) : '';
            answer.kept.push({ kind: written.kind, id: written.id, title });
          } else if (written.before) {
            // Every field as it was, but as a new revision: sync sends a record whose revision differs from
            // the one it last sent, so handing back an old revision number could hide this change (or a
            // later edit).
            put(current.kind, {
              ...written.before,
              revision: current.revision + 1,
              modifiedUtc: nowUtc(now),
            });
            answer.restored++;
          } else if (current.status !== 'trash') {
            put(current.kind, trashedPost(store, current, now));
            answer.trashed++;
          }
        } while (next < entry.records.length && performance.now() - started < SLICE_MS);
      });
      writing.push(written.catch((error: unknown) => void (failed ??= { error })));
      if (writing.length >= 8) await writing.shift();
      if (failed) throw failed.error;
      await nextTurn();
    }
    await Promise.all(writing);
    if (failed) throw failed.error;
    await history.settledSoon(id, 'undone');
    return answer;
  } finally {
    running.delete(id);
  }
}

const titleOf = (record: Tracked) => (record.kind === 'event' ? record.title : record.name);
