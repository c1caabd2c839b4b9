import { lstat, mkdtemp, open, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { ensureBuilt, isolatedEnv, runCli, startServe, type ServeProcess } from './cliProcess';

let home: string;
let env: NodeJS.ProcessEnv;
let folders = 0;
const serves: ServeProcess[] = [];
let remote: TestServer | undefined;

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-cli-exchange-'));
  env = isolatedEnv(home);
}, 120_000);
afterAll(() => rm(home, { recursive: true, force: true }));
afterEach(async () => {
  for (const serve of serves.splice(0)) {
    if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
    await serve.exited;
  }
  await remote?.close();
  remote = undefined;
});

/** A data folder holding a venue and two events, free again (its server stopped). */
async function seededFolder(): Promise<string> {
  const dataDir = join(home, `data-${++folders}`);
  const server = await startTestServer({ dataDir });
  for (const title of ['Book fair', 'Film night']) {
    await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody(title, 5, { venue: { venue: 'Library' }, categories: ['Culture'] }),
    });
  }
  await server.close();
  return dataDir;
}

const titles = async (dataDir: string) => {
  const exported = await runCli(['export', '--format', 'json', '--data', dataDir], env);
  return JSON.parse(exported.stdout)
    .data.events.map((event: { title: string }) => event.title)
    .sort();
};

describe('calendar-desk export / import', () => {
  it('a JSON dump restores into a new folder', async () => {
    const dataDir = await seededFolder();
    const dump = join(home, 'dump.json');
    expect((await runCli(['export', '--format', 'json', '--out', dump, '--data', dataDir], env)).code).toBe(
      0,
    );
    const restored = join(home, `data-${++folders}`);
    const imported = await runCli(['import', dump, '--data', restored], env);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/Restored 4 record\(s\)/);
    expect(await titles(restored)).toEqual(['Book fair', 'Film night']);
  });

  it('--out writes a file only its owner can read (it holds drafts, private events, event passwords)', async () => {
    const dataDir = await seededFolder();
    for (const format of ['json', 'ics', 'csv']) {
      const fresh = join(home, `fresh-export.${format}`);
      // One that exists already, readable by everyone: it is made private before it is filled.
      const existing = join(home, `existing-export.${format}`);
      await writeFile(existing, 'an older export', { mode: 0o644 });
      // Another user who opened the older export (it was readable) and keeps it open: a change of mode
      // does not close their handle, so the new export must not be written into that same file.
      const othersHandle = await open(existing, 'r');
      try {
        for (const out of [fresh, existing]) {
          const exported = await runCli(['export', '--format', format, '--out', out, '--data', dataDir], env);
          expect(exported.code, exported.stderr).toBe(0);
          expect(((await stat(out)).mode & 0o777).toString(8), out).toBe('600');
          expect(await readFile(out, 'utf8')).toContain('Film night');
        }
        expect(await othersHandle.readFile('utf8')).toBe('an older export');
      } finally {
        await othersHandle.close();
      }
    }
  });

  it('--out refuses a symbolic link to a file or to nothing (a planted link must not choose what is replaced)', async () => {
    const dataDir = await seededFolder();
    const victim = join(home, 'precious.txt');
    await writeFile(victim, 'precious', { mode: 0o644 });
    const toFile = join(home, 'export-link.json');
    await symlink(victim, toFile);
    const nowhere = join(home, 'not-yet.json');
    const dangling = join(home, 'dangling-link.json');
    await symlink(nowhere, dangling);
    for (const [link, leadsTo] of [
      [toFile, `to ${victim}`],
      [dangling, 'to nothing'],
    ]) {
      const exported = await runCli(['export', '--format', 'json', '--out', link, '--data', dataDir], env);
      expect(exported.code, link).toBe(1);
      expect(exported.stderr.trim()).toBe(
        `calendar-desk: ${link} is a symbolic link ${leadsTo}: the export is not written through it (it would ` +
          'replace or create a file elsewhere). Remove the link or choose another --out file; without --out the ' +
          'export goes to standard output.',
      );
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
    }
    expect(await readFile(victim, 'utf8')).toBe('precious');
    expect(((await stat(victim)).mode & 0o777).toString(8)).toBe('644');
    expect(await readlink(dangling)).toBe(nowhere);
    expect(existsSync(nowhere)).toBe(false);

    // A link to a pipe is still written through (as `--out /dev/stdout` from a shell): a named pipe here.
    const fifo = join(home, 'export.fifo');
    execFileSync('mkfifo', [fifo]);
    const toPipe = join(home, 'pipe-link.json');
    await symlink(fifo, toPipe);
    const read = readFile(fifo, 'utf8');
    const piped = await runCli(['export', '--format', 'json', '--out', toPipe, '--data', dataDir], env);
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(await read).data.events).toHaveLength(2);
  });

  it('the .ics export parses with an independent parser; the CSV export imports', async () => {
    const dataDir = await seededFolder();
    const ics = await runCli(['export', '--format', 'ics', '--data', dataDir], env);
    expect(ics.code).toBe(0);
    const calendar = new ICAL.Component(ICAL.parse(ics.stdout));
    expect(
      calendar
        .getAllSubcomponents('vevent')
        .map((event) => event.getFirstPropertyValue('summary'))
        .sort(),
    ).toEqual(['Book fair', 'Film night']);
    const csv = join(home, `events-${folders}.csv`);
    expect((await runCli(['export', '--format', 'csv', '--out', csv, '--data', dataDir], env)).code).toBe(0);
    const fromCsv = join(home, `data-${++folders}`);
    const csvImport = await runCli(['import', csv, '--data', fromCsv], env);
    expect(csvImport.stdout).toMatch(/Imported from .*: 2 event\(s\)/);
    expect(await titles(fromCsv)).toEqual(['Book fair', 'Film night']);
  });

  it('--day-first reads 05/06/2027 as 5 June, without it 6 May; importing again matches instead of adding', async () => {
    const csv = join(home, 'dates.csv');
    await writeFile(csv, 'Event Name,Event Start Date,Event Start Time\nChoir,05/06/2027,19:30\n');
    const startsOf = async (dataDir: string) => {
      const exported = await runCli(['export', '--format', 'json', '--data', dataDir], env);
      return JSON.parse(exported.stdout)
        .data.events.filter((event: { title: string }) => event.title === 'Choir')
        .map((event: { startLocal: string }) => event.startLocal);
    };
    const dayFirst = await seededFolder();
    const first = await runCli(['import', csv, '--day-first', '--data', dayFirst], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).not.toMatch(/matched/);
    expect(await startsOf(dayFirst)).toEqual(['2027-06-05 19:30:00']);
    const again = await runCli(['import', csv, '--day-first', '--data', dayFirst], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/1 row\(s\) matched .*: 0 updated, 1 unchanged/);
    expect(again.stdout).toMatch(/line 2: event #\d+ "Choir" unchanged/);
    expect(await startsOf(dayFirst)).toEqual(['2027-06-05 19:30:00']);

    const monthFirst = await seededFolder();
    expect((await runCli(['import', csv, '--data', monthFirst], env)).code).toBe(0);
    expect(await startsOf(monthFirst)).toEqual(['2027-05-06 19:30:00']);
  });

  it('--help says venues and organizers go into WordPress before events, and offers --day-first', async () => {
    const exportHelp = await runCli(['export', '--help'], env);
    expect(exportHelp.code).toBe(0);
    expect(exportHelp.stdout.replace(/\s+/g, ' ')).toMatch(
      /import the venues and the organizers first: the importer links an event only to venues and organizers that are already on the site/,
    );
    const importHelp = await runCli(['import', '--help'], env);
    expect(importHelp.stdout).toMatch(/--day-first .*5 June/);
  });

  it('a repeating event from an .ics imports as one series; again, it is matched and left unchanged', async () => {
    const dataDir = join(home, `data-${++folders}`);
    const file = join(home, 'rehearsals.ics');
    await writeFile(
      file,
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
        'BEGIN:VEVENT',
        'UID:rehearsals@google.com',
        'DTSTAMP:20261120T090000Z',
        'DTSTART;TZID=Europe/Rome:20270105T193000',
        'DTEND;TZID=Europe/Rome:20270105T213000',
        'RRULE:FREQ=WEEKLY;COUNT=4',
        'EXDATE;TZID=Europe/Rome:20270112T193000',
        'SUMMARY:Rehearsal',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:rehearsals@google.com',
        'DTSTAMP:20261120T090000Z',
        'RECURRENCE-ID;TZID=Europe/Rome:20270119T193000',
        'DTSTART;TZID=Europe/Rome:20270119T200000',
        'DTEND;TZID=Europe/Rome:20270119T220000',
        'SUMMARY:Dress rehearsal',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    const first = await runCli(['import', file, '--data', dataDir], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/Imported from .*: 1 event\(s\), 0 venue\(s\), 0 organizer\(s\)\.$/m);
    expect(await titles(dataDir)).toEqual(['Dress rehearsal', 'Rehearsal', 'Rehearsal']);
    const again = await runCli(['import', file, '--data', dataDir], env);
    expect(again.stdout).toMatch(/1 event\(s\) already here matched by UID, 1 of them unchanged/);
    expect(await titles(dataDir)).toEqual(['Dress rehearsal', 'Rehearsal', 'Rehearsal']);
    const exported = await runCli(['export', '--format', 'ics', '--data', dataDir], env);
    const vevents = new ICAL.Component(ICAL.parse(exported.stdout)).getAllSubcomponents('vevent');
    expect(
      vevents.map((vevent) => [vevent.getFirstPropertyValue('uid'), vevent.hasProperty('rrule')]),
    ).toEqual([
      ['rehearsals@google.com', true],
      ['rehearsals@google.com', false],
    ]);
  });

  it('a bad file changes nothing and names its lines (exit 1)', async () => {
    const dataDir = await seededFolder();
    const bad = join(home, 'bad.csv');
    await writeFile(bad, 'Event Name,Event Start Date\nOk,2027-01-01\n,2027-01-02\n');
    const result = await runCli(['import', bad, '--data', dataDir], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Nothing was imported from .*bad\.csv/);
    expect(result.stderr).toMatch(/line 3: Event Name: Event Name is required/);
    expect(await titles(dataDir)).toEqual(['Book fair', 'Film night']);
  });

  it('while a server owns the folder, import and sync go through it and export reads it', async () => {
    const dataDir = await seededFolder();
    const serve = await startServe(['--port', '0', '--data', dataDir], env);
    serves.push(serve);
    const csv = join(home, 'more.csv');
    await writeFile(csv, 'Event Name,Event Start Date,Event Start Time\nConcert,2027-02-02,21:00\n');
    const imported = await runCli(['import', csv, '--data', dataDir], env);
    expect(imported.code).toBe(0);
    // The day-first option reaches the server too.
    const dayFirst = join(home, 'day-first.csv');
    await writeFile(dayFirst, 'Event Name,Event Start Date,Event Start Time\nRecital,03/04/2027,20:00\n');
    expect((await runCli(['import', dayFirst, '--day-first', '--data', dataDir], env)).code).toBe(0);
    const exported = await runCli(['export', '--format', 'csv', '--data', dataDir], env);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^Concert,/m);
    expect(exported.stdout).toMatch(/^Recital,,,2027-04-03,20:00:00,/m);

    remote = await startTestServer();
    const synced = await runCli(
      ['sync', '--data', dataDir, '--remote', remote.engine.apiRoot, '--token', remote.engine.adminToken],
      env,
    );
    expect(synced.stderr).toMatch(/syncing through it/);
    expect(synced.stdout).toMatch(
      /Summary: created 6, updated 0, deleted 0, adopted 0, pulled 0, pictures uploaded 0, conflicts 0, failed 0/,
    );
    expect(synced.code).toBe(0);
  });
});
