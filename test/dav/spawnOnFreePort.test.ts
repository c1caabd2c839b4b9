import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnOnFreePort } from '../helpers/davClients';

// The CalDAV tiers start Debian's servers on free ports; another test's server may take a port first. The helper
// then starts the server again on another port, and never takes another process' answer for the server's.
describe('starting a CalDAV server on a free port', { timeout: 60_000 }, () => {
  it('starts again on another port when the process exits before it answers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'calendar-desk-spawn-'));
    await writeFile(join(dir, 'users'), 'a:b\n');
    const ports: number[] = [];
    const { url, child } = await spawnOnFreePort(
      'Radicale',
      (port) => {
        ports.push(port);
        // The first start fails as a bind to a taken port does: the process exits at once.
        if (ports.length === 1) return spawn('/bin/false');
        return spawn(
          '/usr/bin/radicale',
          ['--server-hosts', `127.0.0.1:${port}`, '--storage-filesystem-folder', join(dir, 'c')],
          { stdio: 'ignore' },
        );
      },
      (answer) => /calendar-access/.test(answer.headers.get('dav') ?? ''),
    );
    try {
      expect(ports).toHaveLength(2);
      expect(url).toBe(`http://127.0.0.1:${ports[1]}/`);
      expect((await fetch(url, { method: 'OPTIONS' })).headers.get('dav')).toContain('calendar-access');
    } finally {
      child.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('does not take another server on the port for the one it started, and gives up after three starts', async () => {
    let starts = 0;
    const started = spawnOnFreePort(
      'Radicale',
      (port) => {
        starts += 1;
        // Answers on the port, but is not a CalDAV server.
        return spawn(process.execPath, [
          '-e',
          `require('node:http').createServer((q, s) => s.end('hi')).listen(${port}, '127.0.0.1')`,
        ]);
      },
      (answer) => /calendar-access/.test(answer.headers.get('dav') ?? ''),
    );
    await expect(started).rejects.toThrow('Radicale did not start on a free loopback port (3 attempts).');
    expect(starts).toBe(3);
  });
});
