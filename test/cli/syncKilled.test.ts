import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { ensureBuilt, isolatedEnv, runCli, startCli } from './cliProcess';

/**
 * A push killed part-way (SIGKILL: no cleanup, the last link writes perhaps lost) and run again: every record
 * arrives on the remote exactly once, and the sync after has nothing to do.
 */
const EVENTS = 150;
let home: string;
let remote: TestServer;
let dataDir: string;

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-cli-killed-'));
  remote = await startTestServer();
  dataDir = join(home, 'laptop');
  const local = await startTestServer({ dataDir });
  const venue = await local.api('venues', { method: 'POST', auth: local.admin, json: { venue: 'Hall' } });
  for (let index = 0; index < EVENTS; index++) {
    const answer = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody(`Rehearsal ${index}`, 2 + (index % 40), { venue: venue.body.id }),
    });
    expect(answer.status).toBe(201);
  }
  await local.close();
}, 120_000);
afterAll(async () => {
  await remote?.close();
  await rm(home, { recursive: true, force: true });
});

const syncArgs = () => [
  'sync',
  '--data',
  dataDir,
  '--remote',
  remote.engine.apiRoot,
  '--token',
  remote.engine.adminToken,
  '--push-only',
  '--json',
];
const remoteTitles = () =>
  [...remote.engine.store.events.values()]
    .filter((event) => event.status !== 'trash')
    .map((event) => event.title);

describe('calendar-desk sync killed part-way', () => {
  it('sends each record once when run again, then has nothing to do', async () => {
    const env = isolatedEnv(home);
    const first = startCli(syncArgs(), env);
    // Killed once some events are created (progress lines on stderr), while others are still to be sent.
    await first.waitFor(({ stderr }) => (stderr.match(/"type":"create","kind":"event"/g) ?? []).length >= 20);
    first.child.kill('SIGKILL');
    const killed = await first.exited;
    expect(killed.code).toBeNull();
    expect(remoteTitles().length).toBeLessThan(EVENTS);

    const again = await runCli(syncArgs(), env);
    expect(again.code, again.stderr).toBe(0);
    const titles = remoteTitles();
    expect(titles).toHaveLength(EVENTS);
    expect(new Set(titles).size).toBe(EVENTS);
    expect([...remote.engine.store.venues.values()].map((venue) => venue.name)).toEqual(['Hall']);

    const after = await runCli([...syncArgs(), '--dry-run'], env);
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout).operations).toEqual([]);
  });
});
