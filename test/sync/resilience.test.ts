import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventBody } from '../helpers/server';
import { allOf, startSyncPair, type SyncPair } from './syncHelpers';
import { RemoteError } from '../../src/main/sync/remoteClient';
import {
  outageWithCreatesInFlight,
  startProxy,
  type Proxy,
  type ProxyVerdict,
} from '../helpers/droppingProxy';

let pair: SyncPair;
const servers: Server[] = [];
const proxies: Proxy[] = [];
beforeEach(async () => {
  pair = await startSyncPair();
});
afterEach(async () => {
  for (const started of proxies.splice(0)) await started.close();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  await pair.close();
});

/** A proxy in front of the remote of the pair (see {@link startProxy}); closed after the test. */
async function proxy(
  misbehave: (method: string, url: string) => ProxyVerdict,
  before?: (method: string, url: string) => Promise<void>,
) {
  const started = await startProxy(pair.remote.engine.origin, misbehave, before);
  proxies.push(started);
  return started.root;
}

async function seedEvents(count: number) {
  for (let index = 0; index < count; index++) {
    const answer = await pair.local.api('events', {
      method: 'POST',
      auth: pair.local.admin,
      json: eventBody(`Event ${index}`, index + 1, { categories: [`Cat ${index % 2}`] }),
    });
    expect(answer.status).toBe(201);
  }
}

describe('sync: an unreliable remote', () => {
  it('a remote that drops answers after doing the work ends with no duplicates', async () => {
    await seedEvents(4);
    const dropped = new Set<string>();
    // Every create loses its answer the first time.
    const root = await proxy((method, url) => {
      if (method !== 'POST' || /\/\d+$/.test(url.split('?')[0]!)) return null;
      const body = url;
      if (dropped.size < 100 && !dropped.has(body + dropped.size)) {
        dropped.add(body + dropped.size);
        return 'drop';
      }
      return null;
    });
    const report = await pair.sync({ root });
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 6, failed: 0 });
    expect(await allOf(pair.remote, 'events')).toHaveLength(4);
    expect(await allOf(pair.remote, 'categories')).toHaveLength(2);
    // And a later sync finds everything linked.
    const again = await pair.sync({ root });
    expect(again.operations.filter((operation) => operation.type !== 'accept')).toEqual([]);
  });

  it('a picture upload whose answer is lost is found on the remote, not uploaded twice', async () => {
    const picture = await fetch(`${pair.local.engine.apiRoot}calendar-desk/v1/media`, {
      method: 'POST',
      headers: {
        ...pair.local.admin,
        'Content-Type': 'image/gif',
        'Content-Disposition': 'attachment; filename="a.gif"',
      },
      body: Buffer.from('GIF89a-a-picture', 'latin1'),
    });
    const image = ((await picture.json()) as { id: number }).id;
    await pair.local.api('events', {
      method: 'POST',
      auth: pair.local.admin,
      json: eventBody('Show', 2, { image }),
    });
    let dropped = 0;
    const root = await proxy((method, url) =>
      method === 'POST' && url.endsWith('/calendar-desk/v1/media') && dropped++ === 0 ? 'drop' : null,
    );
    const report = await pair.sync({ root });
    expect(dropped).toBe(1);
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 1, uploaded: 1, failed: 0 });
    expect(await readdir(join(pair.remote.dataDir, 'media'))).toHaveLength(1);
    const [event] = await allOf(pair.remote, 'events');
    expect(event!.image).toMatchObject({ extension: 'gif' });
    expect((await pair.sync({ root })).operations).toEqual([]);
  });

  it('retries 429 and 503 (honouring Retry-After) and succeeds', async () => {
    await seedEvents(2);
    let refusals = 0;
    const root = await proxy((method) => {
      if (method === 'POST' && refusals < 4) {
        refusals++;
        return { status: refusals % 2 ? 429 : 503, headers: { 'Retry-After': '0' } };
      }
      return null;
    });
    const report = await pair.sync({ root });
    expect(refusals).toBe(4);
    expect(report.summary).toMatchObject({ created: 4, failed: 0 });
    expect(await allOf(pair.remote, 'events')).toHaveLength(2);
  });

  it('a 4xx on one record is recorded on it and the others go on', async () => {
    await seedEvents(3);
    const root = await proxy((method, url) =>
      method === 'POST' && url.endsWith('/events') && !refusedOnce++ ? { status: 400 } : null,
    );
    let refusedOnce = 0;
    const report = await pair.sync({ root });
    expect(report.summary).toMatchObject({ created: 4, failed: 1 });
    expect(report.failures).toEqual([
      expect.objectContaining({
        kind: 'event',
        title: 'Event 0',
        message: expect.stringMatching(
          /^Try later \(HTTP 400 from .*\) The site refused what was sent: if the reason names something of this record you can change here, correct it and run the sync again; otherwise .* report it to the Calendar Desk developers with this message\.$/,
        ),
      }),
    ]);
    // The next run sends the one that failed.
    const next = await pair.sync();
    expect(next.summary).toMatchObject({ created: 1, failed: 0 });
    expect(await allOf(pair.remote, 'events')).toHaveLength(3);
  });

  it('a sync interrupted mid-way resumes where it stopped', async () => {
    await seedEvents(8);
    const stop = new AbortController();
    let done = 0;
    let eventsDone = 0;
    const first = await pair.sync({
      signal: stop.signal,
      onProgress: (event) => {
        if (event.type !== 'operation') return;
        if (event.operation.kind === 'event' && event.outcome === 'done') eventsDone++;
        if (++done === 4) stop.abort();
      },
    });
    // No operation starts after the cancel; those already under way (up to 4 at once) are finished.
    expect(first.interrupted).toBe(true);
    expect(eventsDone).toBeGreaterThanOrEqual(2);
    expect(eventsDone).toBeLessThan(8);
    expect(first.summary.created).toBe(2 + eventsDone);
    expect(await allOf(pair.remote, 'events')).toHaveLength(eventsDone);
    const second = await pair.sync();
    expect(second.interrupted).toBe(false);
    expect(second.summary).toMatchObject({ created: 8 - eventsDone, failed: 0 });
    expect((await allOf(pair.remote, 'events')).map((event) => event.title).sort()).toEqual(
      Array.from({ length: 8 }, (_, index) => `Event ${index}`),
    );
  });
  it('the site going down with 4 creates in flight: each event is on the remote once after the re-run, none lost', async () => {
    await seedEvents(8);
    // The first 4 event creates are in flight together when the site goes down (see the helper).
    const outage = outageWithCreatesInFlight(
      (method, url) => method === 'POST' && url.split('?')[0]!.endsWith('/events'),
    );
    const root = await proxy(outage.misbehave, outage.before);
    const stopped = await pair.sync({ root }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(stopped).toMatchObject({ code: 'REMOTE_UNAVAILABLE', exitStatus: 3 });
    // On the remote: the answered create and the two whose outcome the sync never learned.
    expect(await allOf(pair.remote, 'events')).toHaveLength(3);

    outage.up();
    // Those two are linked by nothing yet (no checkpoint of a create whose outcome is unknown): the re-run
    // finds them by slug and adopts them; the one refused and those never sent are created.
    const planned = await pair.sync({ root, dryRun: true });
    expect(planned.conflicts).toEqual([]);
    expect(planned.operations.map((operation) => operation.type).sort()).toEqual([
      'adopt',
      'adopt',
      ...Array<string>(5).fill('create'),
    ]);
    const resumed = await pair.sync({ root });
    expect(resumed.failures).toEqual([]);
    expect(resumed.summary).toMatchObject({ created: 5, adopted: 2, conflicts: 0, failed: 0 });
    expect((await allOf(pair.remote, 'events')).map((event) => event.title).sort()).toEqual(
      Array.from({ length: 8 }, (_, index) => `Event ${index}`),
    );
    // Every link names a record the remote has: nothing left to do.
    expect((await pair.sync({ root })).operations).toEqual([]);
  });
});

describe('sync: the remote changes under the sync', () => {
  it('credentials revoked mid-way stop the sync with a diagnosis; a re-run continues', async () => {
    await seedEvents(4);
    let creates = 0;
    let revoked = true;
    const root = await proxy((method) => {
      if (method !== 'POST') return null;
      if (revoked && ++creates > 3) {
        return { status: 401 };
      }
      return null;
    });
    const stopped = await pair.sync({ root }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(stopped).toMatchObject({ code: 'REMOTE_BAD_CREDENTIALS' });
    expect((stopped as Error).message).toMatch(/stopped after 3 of 6 operations/);
    revoked = false;
    const resumed = await pair.sync({ root });
    expect(resumed.summary).toMatchObject({ created: 3, failed: 0 });
    expect(await allOf(pair.remote, 'events')).toHaveLength(4);
  });

  it('a record changed on the remote between the plan and its update is not overwritten (If-Match)', async () => {
    await seedEvents(1);
    let meddle = false;
    let remoteId = 0;
    const root = await proxy(
      () => null,
      async (method, url) => {
        // Someone edits the event on the site just before the sync's update reaches it.
        if (meddle && method === 'POST' && url.includes(`/events/${remoteId}`)) {
          await pair.remote.api(`events/${remoteId}`, {
            method: 'POST',
            auth: pair.remote.admin,
            json: { title: 'Theirs' },
          });
        }
      },
    );
    await pair.sync({ root });
    remoteId = (await allOf(pair.remote, 'events'))[0]!.id as number;
    const [local] = [...pair.local.engine.store.events.values()];
    await pair.local.api(`events/${local!.id}`, {
      method: 'POST',
      auth: pair.local.admin,
      json: { title: 'Mine' },
    });
    meddle = true;
    const report = await pair.sync({ root, policy: 'ask' });
    expect((await allOf(pair.remote, 'events'))[0]!.title).toBe('Theirs');
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ updated: 0, failed: 0, conflicts: 1 });
    expect(report.conflicts).toEqual([expect.objectContaining({ kind: 'event', reason: 'both-changed' })]);
    // The next run sees it as the conflict it is.
    meddle = false;
    expect((await pair.sync({ root })).conflicts.map((conflict) => conflict.reason)).toEqual([
      'both-changed',
    ]);
  });
});

describe('sync: verifying the remote first', () => {
  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RemoteError);
    return error as RemoteError;
  };

  it('wrong credentials stop before anything is sent', async () => {
    await seedEvents(1);
    const error = await failure(
      pair.sync({ remote: { auth: { user: 'admin', password: 'abcd efgh ijkl mnop qrst uvwx' } } as never }),
    );
    expect(error.code).toBe('REMOTE_BAD_CREDENTIALS');
    expect(error.message).toMatch(/application password/);
    expect(await allOf(pair.remote, 'events')).toEqual([]);
  });

  it('a user that may not edit events is told so', async () => {
    const headers = await pair.remote.userHeaders('sam', 'subscriber');
    const [user, password] = Buffer.from(headers.Authorization!.slice(6), 'base64').toString().split(':');
    const error = await failure(pair.sync({ remote: { auth: { user, password } } as never }));
    expect(error.code).toBe('REMOTE_INSUFFICIENT_ROLE');
  });

  it('a remote without the namespace is not this API', async () => {
    const error = await failure(pair.sync({ remote: { namespace: 'tribe/events/v1' } as never }));
    expect(error.code).toBe('REMOTE_NOT_THIS_API');
    expect(error.message).toMatch(/does not serve the tribe\/events\/v1 namespace/);
  });

  it('an HTML page instead of JSON, and an unreachable address, are explained', async () => {
    const html = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end('<!doctype html><title>Blog</title>');
    });
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    servers.push(html);
    const port = (html.address() as AddressInfo).port;
    const notJson = await failure(pair.sync({ root: `http://127.0.0.1:${port}/` }));
    expect(notJson.code).toBe('REMOTE_NOT_JSON');
    expect(notJson.message).toMatch(/HTML page instead of JSON/);

    const closed = await failure(
      pair.sync({ root: 'http://127.0.0.1:1/wp-json/', remote: { attempts: 1 } as never }),
    );
    expect(closed.code).toBe('REMOTE_UNREACHABLE');
  });
});
