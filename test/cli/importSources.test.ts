import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  googleCalendar,
  SECRET,
  SECRET_PATH,
  startCalendarSite,
  type CalendarSite,
} from '../helpers/calendarSite';
import { IMPORT_SOURCES_FILE } from '../../src/main/exchange/importSources';
import { ensureBuilt, isolatedEnv, runCli, startServe, type ServeProcess } from './cliProcess';

// `calendar-desk import --url` and `calendar-desk import-sources` (issue 15 item 2), as a user runs them.

let home: string;
let env: NodeJS.ProcessEnv;
let folders = 0;
let site: CalendarSite;
const serves: ServeProcess[] = [];

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-cli-sources-'));
  env = isolatedEnv(home);
}, 120_000);
afterAll(() => rm(home, { recursive: true, force: true }));
beforeEach(async () => {
  site = await startCalendarSite();
  site.serve(SECRET_PATH, { body: googleCalendar(), etag: true });
});
afterEach(async () => {
  for (const serve of serves.splice(0)) {
    if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
    await serve.exited;
  }
  await site.close();
});

const newFolder = () => join(home, `data-${++folders}`);
const address = () => `${site.origin}${SECRET_PATH}`;

/** The titles of the events of a folder that are not in the trash (read through an export). */
async function liveTitles(dataDir: string): Promise<string[]> {
  const exported = await runCli(['export', '--format', 'json', '--data', dataDir], env);
  const events = JSON.parse(exported.stdout).data.events as Array<{ title: string; status: string }>;
  return [...new Set(events.filter((event) => event.status !== 'trash').map((event) => event.title))].sort();
}

describe('calendar-desk import --url / import-sources', () => {
  it('follows an address, lists it masked, refreshes it with a progress line', async () => {
    const dataDir = newFolder();
    const added = await runCli(['import', '--url', address(), '--name', 'Choir', '--data', dataDir], env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain(`Reading the calendar at ${site.origin}/…`);
    expect(added.stdout).toMatch(
      /^Now following "Choir" \(http:\/\/127\.0\.0\.1:\d+\/…\), id [0-9a-f-]{36}\./,
    );
    expect(added.stdout).toContain('5 created, 0 updated, 0 unchanged, 0 moved to the trash');
    expect(await liveTitles(dataDir)).toEqual([
      'Bake sale',
      'Choir rehearsal',
      'Choir rehearsal (dress rehearsal)',
      'Lent concert',
      'Spring festival, two days',
    ]);
    expect(((await stat(join(dataDir, IMPORT_SOURCES_FILE))).mode & 0o777).toString(8)).toBe('600');

    const listed = await runCli(['import-sources', '--data', dataDir], env);
    expect(listed.stdout).toMatch(/\tChoir\thttp:\/\/127\.0\.0\.1:\d+\/…\tlast refreshed /);

    const unchanged = await runCli(['import-sources', 'refresh', '--data', dataDir], env);
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(unchanged.stderr).toMatch(/^Refreshing "Choir" \(http:\/\/127\.0\.0\.1:\d+\/…\)…/);
    expect(unchanged.stdout).toBe('Choir: nothing changed at the address since the last refresh.\n');

    site.serve(SECRET_PATH, {
      body: googleCalendar({ withConcert: false, bakeTitle: 'Bake sale and raffle' }),
    });
    const refreshed = await runCli(['import-sources', 'refresh', '--data', dataDir], env);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stdout).toContain('0 created, 1 updated, 3 unchanged, 1 moved to the trash');
    expect(refreshed.stdout).toContain('  trashed: "Lent concert"');
    expect(await liveTitles(dataDir)).not.toContain('Lent concert');
    // A refresh is undone as any import.
    const undoId = /To undo it: calendar-desk imports undo (\S+)/.exec(refreshed.stdout)![1]!;
    const undone = await runCli(['imports', 'undo', undoId, '--data', dataDir], env);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await liveTitles(dataDir)).toContain('Lent concert');
    expect(await liveTitles(dataDir)).toContain('Bake sale');

    // The same address again: refreshed, not followed twice.
    const again = await runCli(['import', '--url', address(), '--data', dataDir], env);
    expect(again.stdout).toMatch(/"Choir" \(.*\) was followed already \(id [0-9a-f-]{36}\): refreshed it\./);
    for (const output of [added, listed, unchanged, refreshed, again])
      expect(output.stdout + output.stderr).not.toContain(SECRET);
  });

  it('says what went wrong with an address, and nothing is kept', async () => {
    const dataDir = newFolder();
    const missing = await runCli(['import', '--url', `${site.origin}/gone.ics`, '--data', dataDir], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /calendar-desk: http:\/\/127\.0\.0\.1:\d+\/… answered "not found" \(HTTP 404\)/,
    );
    const wrong = await runCli(['import', '--url', 'ftp://example.org/x.ics', '--data', dataDir], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      '--url: Calendar Desk reads calendars from http://, https:// or webcal://',
    );
    const both = await runCli(['import', 'file.ics', '--url', address(), '--data', dataDir], env);
    expect(both.stderr).toContain('Give either a file to import or --url');
    const listed = await runCli(['import-sources', '--data', dataDir], env);
    expect(listed.stdout).toContain('No import addresses yet.');
    const unknown = await runCli(['import-sources', 'refresh', 'nope', '--data', dataDir], env);
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toContain('There is no import address "nope"');
  });

  it('leaves out of "refresh all" an address refused for the events it would create', async () => {
    const dataDir = newFolder();
    const added = await runCli(['import', '--url', address(), '--name', 'Choir', '--data', dataDir], env);
    expect(added.code, added.stderr).toBe(0);
    const id = /id ([0-9a-f-]{36})/.exec(added.stdout)![1]!;
    const titles = await liveTitles(dataDir);
    // 100 daily series of 5,000 events each (issue 26 item 3): over the 50,000 one import may create.
    const series = Array.from({ length: 100 }, (_, index) =>
      [
        'BEGIN:VEVENT',
        `UID:daily-${index}`,
        'DTSTAMP:20260101T000000Z',
        `SUMMARY:Daily ${index}`,
        'DTSTART:20150101T100000Z',
        'RRULE:FREQ=DAILY;COUNT=5000',
        'END:VEVENT',
      ].join('\r\n'),
    );
    site.serve(SECRET_PATH, {
      body: ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...series, 'END:VCALENDAR'].join('\r\n'),
    });
    const refused = await runCli(['import-sources', 'refresh', id, '--data', dataDir], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "This file's repeating events would create up to 500,000 events; an import may create at most 50,000.",
    );
    const fetched = site.requests.length;
    const all = await runCli(['import-sources', 'refresh', '--data', dataDir], env);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr).toContain(
      `Choir: not refreshed: its last refresh was refused because its calendar would create too many events. ` +
        `Refresh it by itself once it is smaller: calendar-desk import-sources refresh ${id}`,
    );
    expect(site.requests.length).toBe(fetched);
    const listed = await runCli(['import-sources', '--data', dataDir], env);
    expect(listed.stdout).toContain('last refresh failed: Nothing was imported from Choir');
    expect(await liveTitles(dataDir)).toEqual(titles);
  });

  it('goes through the server that owns the folder', async () => {
    const dataDir = newFolder();
    const serve = await startServe(['--port', '0', '--data', dataDir], env);
    serves.push(serve);
    const added = await runCli(['import', '--url', address(), '--data', dataDir], env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Now following "St Cecilia Choir"');
    const id = /id ([0-9a-f-]{36})/.exec(added.stdout)![1]!;
    site.serve(SECRET_PATH, { body: googleCalendar({ withConcert: false }) });
    const refreshed = await runCli(['import-sources', 'refresh', id, '--data', dataDir], env);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stdout).toContain('1 moved to the trash');
    const removed = await runCli(['import-sources', 'remove', id, '--data', dataDir], env);
    expect(removed.stdout).toContain('No longer following "St Cecilia Choir"; the events it brought stay.');
    expect((await runCli(['import-sources', '--data', dataDir], env)).stdout).toContain(
      'No import addresses yet.',
    );
    expect(serve.stdout + serve.stderr()).not.toContain(SECRET);
  });
});
