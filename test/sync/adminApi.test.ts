import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataFolderText, eventBody } from '../helpers/server';
import { startSyncPair, type SyncPair } from './syncHelpers';
import { SECRET_KEY_FILE } from '../../src/main/sync/secretBox';
import { remoteViewSchema, syncJobStatusSchema, syncReportSchema } from '../../src/shared/schemas/sync';

let pair: SyncPair;
beforeEach(async () => {
  pair = await startSyncPair();
});
afterEach(async () => {
  await pair.close();
});

/** Calls the admin namespace of the local server. */
async function admin(
  path: string,
  init: { method?: string; json?: unknown; auth?: Record<string, string> } = {},
) {
  const { local } = pair;
  return local.api(`${local.engine.origin}/wp-json/calendar-desk/v1/${path}`, {
    method: init.method ?? 'GET',
    json: init.json,
    auth: init.auth ?? local.admin,
  });
}

async function waitForJob(id: string) {
  for (;;) {
    const status = await admin(`sync-jobs/${id}`);
    // Every answer has the shape the desktop app relies on (the shared schema).
    syncJobStatusSchema.parse(status.body);
    if (status.body.state !== 'running') return status.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('admin API for the desktop Sync screen', () => {
  it('saves remotes with sealed secrets and never returns them', async () => {
    const token = pair.remote.engine.adminToken;
    const saved = await admin('remotes', {
      method: 'PUT',
      json: [{ name: 'Website', root: pair.remote.engine.apiRoot, auth_type: 'token', secret: token }],
    });
    expect(saved.status).toBe(200);
    remoteViewSchema.array().parse(saved.body);
    expect(saved.body).toEqual([
      {
        id: expect.any(String),
        name: 'Website',
        root: pair.remote.engine.apiRoot,
        namespace: 'cal/events/v1',
        auth_type: 'token',
        user: '',
        has_secret: true,
      },
    ]);
    // Saving again without the secret keeps it.
    const again = await admin('remotes', {
      method: 'PUT',
      json: [{ ...saved.body[0], name: 'Site', secret: undefined }],
    });
    expect(again.body[0]).toMatchObject({ name: 'Site', has_secret: true });
    expect(JSON.stringify((await admin('remotes')).body)).not.toContain(token);
    expect(await dataFolderText(pair.local.dataDir)).not.toContain(token);
    expect((await stat(join(pair.local.dataDir, SECRET_KEY_FILE))).mode & 0o777).toBe(0o600);
  });

  it('plans, then runs a sync job with progress and a summary; conflicts take per-record decisions', async () => {
    const created = await pair.local.api('events', {
      method: 'POST',
      auth: pair.local.admin,
      json: eventBody('Fair', 3),
    });
    const [remote] = (
      await admin('remotes', {
        method: 'PUT',
        json: [
          { root: pair.remote.engine.apiRoot, auth_type: 'token', secret: pair.remote.engine.adminToken },
        ],
      })
    ).body;
    const planned = await admin(`remotes/${remote.id}/plan`, { method: 'POST', json: {} });
    expect(planned.status).toBe(200);
    syncReportSchema.parse(planned.body);
    expect(planned.body.operations).toEqual([
      { type: 'create', kind: 'event', localId: created.body.id, title: 'Fair' },
    ]);
    const started = await admin(`remotes/${remote.id}/sync`, { method: 'POST', json: {} });
    expect(started.status).toBe(202);
    const finished = await waitForJob(started.body.id);
    expect(finished).toMatchObject({ state: 'done', done: 1, total: 1 });
    expect(finished.report.summary).toMatchObject({ created: 1, failed: 0 });

    // Both sides change: the plan shows the conflict with its diff; a decision settles it.
    const [pushed] = (await pair.remote.api('events', { auth: pair.remote.admin })).body.events;
    await pair.remote.api(`events/${pushed.id}`, {
      method: 'POST',
      auth: pair.remote.admin,
      json: { title: 'Fair (site)' },
    });
    await pair.local.api(`events/${created.body.id}`, {
      method: 'POST',
      auth: pair.local.admin,
      json: { title: 'Fair (desk)' },
    });
    const conflicted = await admin(`remotes/${remote.id}/plan`, { method: 'POST', json: {} });
    // Two-way by default: the three values of the field changed on both sides (base: as at the last sync).
    expect(conflicted.body.conflicts[0].diff).toEqual([
      { field: 'title', base: 'Fair', local: 'Fair (desk)', remote: 'Fair (site)' },
    ]);
    // One direction on request; an unknown one is refused.
    const pullOnly = await admin(`remotes/${remote.id}/plan`, {
      method: 'POST',
      json: { direction: 'pull' },
    });
    expect(pullOnly.body.conflicts).toHaveLength(1);
    expect(
      (await admin(`remotes/${remote.id}/plan`, { method: 'POST', json: { direction: 'sideways' } })).body,
    ).toMatchObject({ code: 'rest_invalid_param' });
    const decided = await admin(`remotes/${remote.id}/sync`, {
      method: 'POST',
      json: { decisions: { [`event:${created.body.id}`]: 'local-wins' } },
    });
    expect((await waitForJob(decided.body.id)).report.summary).toMatchObject({ updated: 1, conflicts: 0 });
    expect((await pair.remote.api(`events/${pushed.id}`)).body.title).toBe('Fair (desk)');
  });

  it('a failing remote is reported by the job; only administrators may use any of it', async () => {
    const started = await admin('sync-jobs', {
      method: 'POST',
      json: { remote: pair.remote.engine.apiRoot, auth: { user: 'admin', password: 'wrong wrong' } },
    });
    expect(await waitForJob(started.body.id)).toMatchObject({
      state: 'failed',
      error: { code: 'REMOTE_BAD_CREDENTIALS' },
    });
    const editor = await pair.local.userHeaders('eddie', 'editor');
    expect((await admin('remotes', { auth: editor })).status).toBe(403);
    expect((await admin('sync-jobs', { method: 'POST', auth: {}, json: {} })).status).toBe(401);
  });

  it('a sync job with the remote given in full is judged as `calendar-desk sync` judges its flags', async () => {
    const refused = await admin('sync-jobs', {
      method: 'POST',
      json: { remote: 'ftp://example.org/wp-json/', auth: null, policy: 'sometimes' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { remote: 'use an http:// or https:// address', policy: expect.any(String) } },
    });
    const noPassword = await admin('sync-jobs', {
      method: 'POST',
      json: { remote: pair.remote.engine.apiRoot, auth: { user: 'admin', password: '' } },
    });
    expect(noPassword.status).toBe(400);
    // Nothing was started by the refused requests: a good one runs at once.
    const started = await admin('sync-jobs', {
      method: 'POST',
      json: { remote: pair.remote.engine.apiRoot, auth: null, dry_run: true },
    });
    expect(started.status).toBe(202);
    expect(await waitForJob(started.body.id)).toMatchObject({
      state: 'failed',
      error: { code: 'REMOTE_NO_CREDENTIALS' },
    });
  });

  it('imports a file, all or nothing', async () => {
    const good = 'Event Name,Event Start Date,Event Start Time\nPicnic,2027-05-01,12:00\n';
    const imported = await admin('import', {
      method: 'POST',
      json: { file_name: 'events.csv', content: good },
    });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ format: 'csv', events: 1 });
    const bad = await admin('import', {
      method: 'POST',
      json: { file_name: 'events.csv', content: `${good}Broken,someday,12:00\n` },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.problems).toEqual([
      { line: 3, message: expect.stringMatching(/^Event Start Date: "someday" is not a date/) },
    ]);
    // The same file again: the row is the event already here (title + start), reported, not added twice.
    const again = await admin('import', {
      method: 'POST',
      json: { file_name: 'events.csv', content: good },
    });
    expect(again.body.matched).toEqual([
      { line: 2, kind: 'event', id: expect.any(Number), name: 'Picnic', changed: false },
    ]);
    expect(pair.local.engine.store.events.size).toBe(1);
    const dayFirst = await admin('import', {
      method: 'POST',
      json: {
        file_name: 'events.csv',
        content: 'Event Name,Event Start Date\nFair,03/04/2027\n',
        day_first: true,
      },
    });
    expect(dayFirst.status).toBe(200);
    const fair = [...pair.local.engine.store.events.values()].find((event) => event.title === 'Fair');
    expect(fair?.startLocal).toBe('2027-04-03 00:00:00');
    const wrongOption = await admin('import', {
      method: 'POST',
      json: { file_name: 'events.csv', content: good, day_first: 'yes' },
    });
    expect(wrongOption.status).toBe(400);
  });

  it('writes the imported records as the administrator who imports them', async () => {
    const second = await pair.local.userHeaders('second-admin', 'administrator');
    const imported = await admin('import', {
      method: 'POST',
      auth: second,
      json: { file_name: 'events.csv', content: 'Event Name,Event Start Date\nConcert,2027-05-02\n' },
    });
    expect(imported.status).toBe(200);
    const [event] = [...pair.local.engine.store.events.values()];
    const author = pair.local.engine.store.users.getByKey('second-admin');
    expect(event.title).toBe('Concert');
    expect(event.authorId).toBe(author!.id);
  });
});
