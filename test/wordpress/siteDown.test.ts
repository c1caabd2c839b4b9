import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';
import { ensureBuilt, runCli, startCli } from '../cli/cliProcess';
import { addEvents, cliEnv, localCalendar, peerEvents, syncArgs } from './localCalendar';

const TITLES = Array.from({ length: 24 }, (_, index) => `Concert ${index + 1}`);

describeWithPeer('sync when the site stops answering mid-way (php-fpm down behind nginx)', () => {
  let peer: WordPressPeer;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    [peer] = await Promise.all([startWordPressPeer(), ensureBuilt()]);
    env = await cliEnv();
    dataDir = await localCalendar((local) =>
      addEvents(local, TITLES, (index) => ({ categories: [index % 2 ? 'Music' : 'Jazz'] })),
    );
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await peer?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (env?.HOME) await rm(env.HOME, { recursive: true, force: true });
  });

  it('stops with "the site is not answering" and exit 3; once it is back, the re-run finishes with no duplicates', async () => {
    const sync = startCli([...syncArgs(peer, dataDir), '--json'], env);
    const operations = (stderr: string) => stderr.split('\n').filter((line) => line.includes('"operation"'));
    await sync.waitFor(({ stderr }) => operations(stderr).length >= 6);
    await peer.stopPhp();
    const stopped = await sync.exited;

    expect(stopped.code).toBe(3);
    const report = JSON.parse(stopped.stdout);
    expect(report).toMatchObject({ error: { code: 'REMOTE_UNAVAILABLE' }, exit_status: 3 });
    expect(report.error.message).toMatch(
      /^The site is not answering: .* answered HTTP 502 with an error page/,
    );
    expect(report.error.message).toMatch(/what was done is saved, run it again to continue\.$/);
    expect(stopped.stderr).toMatch(/^calendar-desk: The site is not answering/m);
    expect(stopped.stderr).not.toMatch(/not a REST API root/);
    // The records after the outage were not each failed: the sync stopped instead.
    expect(operations(stopped.stderr).filter((line) => line.includes('"outcome":"failed"'))).toEqual([]);
    const before = await (async () => {
      await peer.restart();
      return peerEvents(peer);
    })();
    expect(before.length).toBeLessThan(TITLES.length);

    const resumed = await runCli(syncArgs(peer, dataDir), env);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/conflicts 0, failed 0$/m);
    const events = await peerEvents(peer);
    expect(events.map((event) => event.title).sort()).toEqual([...TITLES].sort());
    const again = await runCli(syncArgs(peer, dataDir, peer.admin, '--dry-run'), env);
    expect(again.stdout).toMatch(/0 operation\(s\) planned/);
  }, 180_000);
});
