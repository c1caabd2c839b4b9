import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventBody } from '../helpers/server';
import { SyncJobs } from '../../src/main/sync/jobs';
import type { SyncProgress } from '../../src/main/sync/executor';
import { allOf, startSyncPair, type SyncPair } from './syncHelpers';
import { folderOwner } from '../../src/main/core/users';

let pair: SyncPair;
beforeEach(async () => {
  pair = await startSyncPair();
  for (const title of ['One', 'Two', 'Three', 'Four', 'Five', 'Six']) {
    await pair.local.api('events', { method: 'POST', auth: pair.local.admin, json: eventBody(title, 2) });
  }
});
afterEach(() => pair.close());

describe('sync jobs (what the desktop app watches)', () => {
  it('emit progress events, can be cancelled between operations, and a new job resumes', async () => {
    const jobs = new SyncJobs();
    const options = {
      store: pair.local.engine.store,
      caller: folderOwner(pair.local.engine.store),
      policy: 'ask' as const,
      remote: {
        root: pair.remote.engine.apiRoot,
        namespace: 'cal/events/v1',
        auth: { token: pair.remote.engine.adminToken },
      },
    };
    const seen: SyncProgress[] = [];
    jobs.on('progress', (id: string, event: SyncProgress) => {
      seen.push(event);
      if (event.type === 'operation') jobs.cancel(id);
    });
    const finished = (id: string) =>
      new Promise<void>((resolve) => jobs.on('finished', (done: string) => done === id && resolve()));
    const first = jobs.start(options);
    expect(jobs.busy).toBe(true);
    await finished(first.id);
    // Cancelled when the first operation ended: the 4 sent at once are finished, no other starts.
    expect(jobs.status(first.id)).toMatchObject({
      state: 'done',
      done: 4,
      total: 6,
      report: { interrupted: true, summary: { created: 4 } },
    });
    expect(seen.map((event) => event.type)).toEqual(['start', ...Array(4).fill('operation')]);

    jobs.removeAllListeners('progress');
    const second = jobs.start(options);
    await finished(second.id);
    expect(jobs.status(second.id)?.report?.summary).toMatchObject({ created: 2, failed: 0 });
    expect(await allOf(pair.remote, 'events')).toHaveLength(6);
  });
});
