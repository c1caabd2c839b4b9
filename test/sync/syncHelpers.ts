import { startTestServer, type TestServer } from '../helpers/server';
import { runSync, type SyncOptions, type SyncReport } from '../../src/main/sync/sync';
import type { ConflictPolicy } from '../../src/main/sync/model';
import { folderOwner } from '../../src/main/core/users';

/** Two real servers on loopback: `local` is the calendar being synced, `remote` the site it is pushed to. */
export interface SyncPair {
  local: TestServer;
  remote: TestServer;
  sync(options?: Partial<SyncOptions> & { policy?: ConflictPolicy; root?: string }): Promise<SyncReport>;
  close(): Promise<void>;
}

export async function startSyncPair(): Promise<SyncPair> {
  const local = await startTestServer();
  const remote = await startTestServer();
  return {
    local,
    remote,
    sync: ({ root, ...options } = {}) =>
      runSync({
        store: local.engine.store,
        caller: folderOwner(local.engine.store),
        policy: 'ask',
        ...options,
        remote: {
          root: root ?? remote.engine.apiRoot,
          namespace: 'cal/events/v1',
          auth: { token: remote.engine.adminToken },
          backoffMs: 1,
          ...options.remote,
        },
      }),
    async close() {
      await Promise.all([local.close(), remote.close()]);
    },
  };
}

/** Every record of a collection on a server, all dates and statuses included. */
export async function allOf(server: TestServer, collection: string) {
  const query =
    collection === 'events'
      ? 'start_date=1900-01-01&end_date=2200-01-01&show_hidden=true&'
      : collection === 'categories' || collection === 'tags'
        ? 'hide_empty=false&'
        : '';
  const answer = await server.api(`${collection}?${query}per_page=50`, { auth: server.admin });
  if (answer.status !== 200)
    throw new Error(`${collection}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body[collection] as Record<string, unknown>[];
}
