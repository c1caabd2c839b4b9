import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server';
import { ensureBuilt, isolatedEnv, runCli, startServe, type ServeProcess } from './cliProcess';

let home: string;
let env: NodeJS.ProcessEnv;
const serves: ServeProcess[] = [];
let folders = 0;
const freshFolder = () => join(home, `data-${++folders}`);

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-feeds-'));
  env = isolatedEnv(home);
}, 120_000);
afterAll(() => rm(home, { recursive: true, force: true }));
afterEach(async () => {
  for (const serve of serves.splice(0)) await stop(serve);
});

async function stop(serve: ServeProcess) {
  if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
  await serve.exited;
}

async function serve(args: string[]) {
  const started = await startServe(args, env);
  serves.push(started);
  return started;
}

const portOf = (address: string) => Number(new URL(address).port);

interface FeedsJson {
  enabled: boolean;
  calendar: { http: string; webcal: string } | null;
  categories: { name: string; http: string; webcal: string }[];
  venues: { name: string; http: string; webcal: string }[];
  address_notice: string | null;
}

async function feedsJson(dataDir: string, ...extra: string[]): Promise<FeedsJson> {
  const result = await runCli(['feeds', '--json', '--data', dataDir, ...extra], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as FeedsJson;
}

describe('calendar-desk feeds', () => {
  it('lists the whole calendar, each category and each venue, as webcal and http addresses', async () => {
    const dataDir = freshFolder();
    const server = await startTestServer({ dataDir });
    await server.api('categories', { method: 'POST', json: { name: 'Choir' }, auth: server.admin });
    await server.api('venues', {
      method: 'POST',
      json: { venue: 'Town Hall', status: 'publish' },
      auth: server.admin,
    });
    const servedPort = server.engine.port;
    await server.close();

    const text = await runCli(['feeds', '--data', dataDir], env);
    expect(text.code, text.stderr).toBe(0);
    // The folder's server is not running: the addresses are those of the port it last used.
    const address = `127.0.0.1:${servedPort}/feeds/`;
    expect(text.stdout).toMatch(
      new RegExp(`Whole calendar\\n  webcal://${address}[\\w-]{43}/calendar\\.ics\\n  http://`),
    );
    expect(text.stdout).toMatch(
      new RegExp(`Category: Choir\\n  webcal://${address}[\\w-]{43}/category/choir\\.ics`),
    );
    expect(text.stdout).toMatch(
      new RegExp(`Venue: Town Hall\\n  webcal://${address}[\\w-]{43}/venue/town-hall\\.ics`),
    );
    expect(text.stdout).toContain('answer on this computer while Calendar Desk runs');

    const json = await feedsJson(dataDir);
    expect(json.enabled).toBe(true);
    expect(text.stdout).toContain(json.calendar!.webcal);
    expect(json.categories.map((feed) => feed.name)).toEqual(['Choir']);
    expect(json.venues.map((feed) => feed.name)).toEqual(['Town Hall']);

    const revoked = await runCli(['feeds', '--revoke', '--data', dataDir], env);
    expect(revoked.stdout).toContain('Calendar feeds are off');
    const regenerated = await feedsJson(dataDir, '--regenerate');
    expect(regenerated.calendar!.http).not.toBe(json.calendar!.http);
    const both = await runCli(['feeds', '--revoke', '--regenerate', '--data', dataDir], env);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/either --regenerate or --revoke/);
  });

  it('goes through the running server: its addresses answer, and a regenerated secret retires the old ones', async () => {
    const dataDir = freshFolder();
    const running = await serve(['--port', '0', '--data', dataDir]);
    const feeds = await feedsJson(dataDir);
    expect(portOf(feeds.calendar!.http)).toBe(portOf(running.webUi));
    const feed = await fetch(feeds.calendar!.http);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toMatch(/^BEGIN:VCALENDAR/);
    const fresh = await feedsJson(dataDir, '--regenerate');
    expect((await fetch(feeds.calendar!.http)).status).toBe(404);
    expect((await fetch(fresh.calendar!.http)).status).toBe(200);
  });
});

describe('the address across restarts', () => {
  it('keeps the port the calendar last used, and says so when it must change', async () => {
    const dataDir = freshFolder();
    const first = await serve(['--data', dataDir]);
    const port = portOf(first.webUi);
    const { calendar } = await feedsJson(dataDir);
    await stop(first);

    const second = await serve(['--data', dataDir]);
    expect(portOf(second.webUi)).toBe(port);
    expect(second.stderr()).not.toMatch(/address changed/);
    // The subscribed address still answers after the restart.
    expect((await fetch(calendar!.http)).status).toBe(200);
    await stop(second);

    // Another program takes the port meanwhile: the calendar starts elsewhere and says so.
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const third = await serve(['--data', dataDir]);
      const moved = portOf(third.webUi);
      expect(moved).not.toBe(port);
      expect(third.stderr()).toContain(
        `The calendar's address changed from http://127.0.0.1:${port} to http://127.0.0.1:${moved} ` +
          `(port ${port} is in use by another program)`,
      );
      const now = await feedsJson(dataDir);
      expect(portOf(now.calendar!.http)).toBe(moved);
      // Settings, Calendar feeds shows the same sentence (from the admin answer the command printed).
      expect(now.address_notice).toContain(`changed from http://127.0.0.1:${port}`);
      await stop(third);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    // The new port is the one kept from now on.
    const fourth = await serve(['--data', dataDir]);
    expect(portOf(fourth.webUi)).not.toBe(port);
  });

  it('says why the feeds are off when feeds.json was damaged, keeps the damaged copy, and makes new addresses', async () => {
    const dataDir = freshFolder();
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'feeds.json'), '{"secret": nul');
    const off = await runCli(['feeds', '--data', dataDir], env);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toContain('Calendar feeds are off');
    expect(off.stdout).toMatch(
      /The feed secret file was damaged \(kept as .*feeds\.json\.damaged-.*\): the calendar feeds are off/,
    );
    expect((await readdir(dataDir)).filter((name) => name.startsWith('feeds.json.damaged-'))).toHaveLength(1);
    const regenerated = await feedsJson(dataDir, '--regenerate');
    expect(regenerated.enabled).toBe(true);
    expect(regenerated.address_notice).toBeNull();
    // Said once: the next start reads the file it wrote.
    expect((await feedsJson(dataDir)).calendar).toEqual(regenerated.calendar);
  });
});
