import { defineStore } from 'pinia';
import { ref } from 'vue';
import type {
  ConflictPolicy,
  Decisions,
  RemoteCheckInput,
  RemoteCheckResult,
  RemoteInput,
  RemoteView,
  SyncJobStatus,
  SameNameChoice,
  SyncDirection,
  SyncReport,
} from '../../../shared/schemas/sync';
import { useSessionStore } from './session';

const POLL_MS = 400;

/**
 * Publishing to remotes through the app's admin API: saved remotes (secrets stay in the server, sealed),
 * dry runs that show the plan and the conflicts, and sync jobs followed until they end.
 */
export const useSyncStore = defineStore('sync', () => {
  const session = useSessionStore();
  const remotes = ref<RemoteView[]>([]);
  const job = ref<SyncJobStatus | null>(null);

  async function load(): Promise<RemoteView[]> {
    remotes.value = (await session.api().call('GET remotes')).data;
    return remotes.value;
  }

  /** Saves the whole list (the API replaces it); a remote without `secret` keeps its saved one. */
  async function save(list: RemoteInput[]): Promise<RemoteView[]> {
    remotes.value = (await session.api().call('PUT remotes', { body: list })).data;
    return remotes.value;
  }

  /** Checks a site before it is saved: address, events namespace, credentials (throws what is wrong). */
  async function check(input: RemoteCheckInput): Promise<RemoteCheckResult> {
    return (await session.api().call('POST remotes/check', { body: input })).data;
  }

  /** What a sync would do now, changing nothing (the remote is read, not written). */
  async function plan(
    remoteId: string,
    policy: ConflictPolicy,
    decisions: Decisions,
    direction: SyncDirection,
  ): Promise<SyncReport> {
    const params = { id: remoteId };
    return (
      await session.api().call('POST remotes/:id/plan', { params, body: { policy, decisions, direction } })
    ).data;
  }

  /** Runs a sync and follows it; `job` shows its progress meanwhile. Resolves with the final status. */
  async function run(
    remoteId: string,
    policy: ConflictPolicy,
    decisions: Decisions,
    direction: SyncDirection,
    /** What to do with venues or organizers of one name the site would make one (the preview lists them). */
    sameNames?: SameNameChoice,
  ): Promise<SyncJobStatus> {
    const body = { policy, decisions, direction, ...(sameNames ? { same_names: sameNames } : {}) };
    job.value = (await session.api().call('POST remotes/:id/sync', { params: { id: remoteId }, body })).data;
    while (job.value.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      job.value = (await session.api().call('GET sync-jobs/:id', { params: { id: job.value.id } })).data;
    }
    return job.value;
  }

  async function cancel(): Promise<void> {
    if (job.value?.state === 'running') {
      await session.api().call('POST sync-jobs/:id/cancel', { params: { id: job.value.id }, body: {} });
    }
  }

  return { remotes, job, load, save, check, plan, run, cancel };
});
