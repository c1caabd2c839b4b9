import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { z } from 'zod';
import type {
  ImportSourceInput,
  ImportSourceView,
  sourceRefreshAnswerSchema,
} from '../../../shared/schemas/importSources';
import type {
  ImportAnswer as SharedImportAnswer,
  ImportHistoryEntry,
  ImportJobRequest,
  ImportJobStatus,
  ImportRow,
  ImportUndoAnswer,
} from '../../../shared/schemas/imports';
import { useSessionStore } from './session';
import { useEventsStore } from './events';
import { useRecordsStore } from './records';

export type { ImportHistoryEntry, ImportJobStatus, ImportRow, ImportUndoAnswer };
export type ImportAction = ImportRow['action'];

/** What an import answers (`POST import`, a job's result); a refresh of an address says which and if it changed. */
export type ImportAnswer = SharedImportAnswer &
  Partial<Pick<SourceRefreshAnswer, 'source_id' | 'not_modified'>>;
type SourceRefreshAnswer = z.infer<typeof sourceRefreshAnswerSchema>;

/** An address imported from: its `url` masked (the secret part of the path cut). */
export type ImportSource = ImportSourceView;

/** A file as the API takes it: its name (the format by its ending), its text, and for CSV the date order. */
export type ImportFile = ImportJobRequest;

const POLL_MS = 300;

/**
 * Imports through the admin API: the preview of a file (a dry run), the import itself as a job followed
 * until it ends, the history of imports with their undo, and the addresses imported from again and again.
 */
export const useImportsStore = defineStore('imports', () => {
  const session = useSessionStore();
  const events = useEventsStore();
  const records = useRecordsStore();
  const job = ref<ImportJobStatus | null>(null);
  const history = ref<ImportHistoryEntry[]>([]);
  const sources = ref<ImportSource[]>([]);

  /** Something was written: the calendar and the pickers read again. */
  function changed() {
    events.revision += 1;
    records.invalidateAll();
  }

  /**
   * The lists read again after a change that worked: their own failure is theirs to show (the history section
   * says so), not a failure of the change.
   */
  async function reloadLists(): Promise<void> {
    await Promise.allSettled([loadSources(), loadHistory()]);
  }

  /** What importing the file would do, writing nothing (throws `import_invalid` with its problems). */
  async function preview(file: ImportFile): Promise<ImportAnswer> {
    return (await session.api().call('POST import', { body: { ...file, dry_run: true } })).data;
  }

  /** Imports the file as a job; `job` shows its progress meanwhile. Resolves with the final status. */
  async function run(file: ImportFile): Promise<ImportJobStatus> {
    job.value = (await session.api().call('POST import-jobs', { body: file })).data;
    while (job.value.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      job.value = (await session.api().call('GET import-jobs/:id', { params: { id: job.value.id } })).data;
    }
    if (job.value.state === 'done') {
      changed();
      await reloadLists();
    }
    return job.value;
  }

  async function loadHistory(): Promise<ImportHistoryEntry[]> {
    history.value = (await session.api().call('GET imports')).data;
    return history.value;
  }

  /** Puts back what an import wrote; what was changed since stays, listed in `kept`. */
  async function undo(id: string): Promise<ImportUndoAnswer> {
    const answer = (await session.api().call('POST imports/:id/undo', { params: { id }, body: {} })).data;
    changed();
    await reloadLists();
    return answer;
  }

  async function loadSources(): Promise<ImportSource[]> {
    sources.value = (await session.api().call('GET import-sources')).data;
    return sources.value;
  }

  /** Remembers an address and imports from it a first time. */
  async function addSource(input: ImportSourceInput): Promise<ImportSource & { result?: ImportAnswer }> {
    const source = (await session.api().call('POST import-sources', { body: input })).data;
    changed();
    await reloadLists();
    return source;
  }

  /** Imports from the address again: what changed is updated, what left it goes to the trash. */
  async function refreshSource(id: string): Promise<ImportAnswer> {
    try {
      const answer = (
        await session.api().call('POST import-sources/:id/refresh', { params: { id }, body: {} })
      ).data;
      changed();
      return answer;
    } finally {
      // The source remembers its last result or error either way.
      await reloadLists();
    }
  }

  /** Forgets an address; the events it brought stay. */
  async function removeSource(id: string): Promise<void> {
    await session.api().call('DELETE import-sources/:id', { params: { id } });
    await loadSources();
  }

  return {
    job,
    history,
    sources,
    preview,
    run,
    loadHistory,
    undo,
    loadSources,
    addSource,
    refreshSource,
    removeSource,
  };
});
