import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { mountSmallDisk, whySmallDisksCannotBeMounted } from '../helpers/tmpfs';
import { exportDump } from '../../src/main/exchange/jsonDump';
import { HISTORY_FILE } from '../../src/main/exchange/importHistory';
import {
  importAnswerSchema,
  importHistorySchema,
  importJobStatusSchema,
  importUndoAnswerSchema,
} from '../../src/shared/schemas/imports';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

/** Calls the admin namespace (as the administrator unless `auth` says otherwise). */
function admin(
  path: string,
  init: { method?: string; json?: unknown; auth?: Record<string, string> } = {},
  on: TestServer = server,
) {
  return on.api(`${on.engine.origin}/wp-json/calendar-desk/v1/${path}`, {
    method: init.method ?? 'GET',
    json: init.json,
    auth: init.auth ?? on.admin,
  });
}

const post = (path: string, json: unknown, on?: TestServer) => admin(path, { method: 'POST', json }, on);

/** Every file of the data folder, byte for byte, once every write has landed. */
async function folderBytes(on: TestServer = server): Promise<Map<string, Buffer>> {
  await on.engine.store.idle();
  const files = new Map<string, Buffer>();
  for (const name of (await readdir(on.dataDir)).sort()) {
    const path = join(on.dataDir, name);
    if ((await stat(path)).isFile()) files.set(name, await readFile(path));
  }
  return files;
}

/** The records of the store (what an undo must put back exactly). */
function records(on: TestServer = server) {
  const { store } = on.engine;
  return {
    events: [...store.events.values()],
    venues: [...store.venues.values()],
    organizers: [...store.organizers.values()],
  };
}

const CSV_HEAD = 'Event Name,Event Start Date,Event Start Time,Event Description,Event Venue Name';
const FIRST_CSV = [CSV_HEAD, 'Picnic,2027-05-01,12:00,Bring food,', 'Choir,2027-05-02,19:00,,'].join('\n');
/** Line 2: Picnic changed; line 3: Choir as it is; line 4: a new event at a new venue. */
const SECOND_CSV = [
  CSV_HEAD,
  'Picnic,2027-05-01,12:00,Bring food and drinks,',
  'Choir,2027-05-02,19:00,,',
  'Fair,2027-06-01,10:00,,Town Hall',
].join('\n');

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
  'BEGIN:VEVENT',
  'DTSTART;TZID=Europe/Rome:20270105T193000',
  'DTEND;TZID=Europe/Rome:20270105T213000',
  'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6',
  'EXDATE;TZID=Europe/Rome:20270119T193000',
  'UID:rehearsal@example.test',
  'SUMMARY:Choir rehearsal',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'DTSTART;TZID=Europe/Rome:20270126T200000',
  'DTEND;TZID=Europe/Rome:20270126T223000',
  'UID:rehearsal@example.test',
  'RECURRENCE-ID;TZID=Europe/Rome:20270126T193000',
  'SUMMARY:Choir rehearsal (later)',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'DTSTART:20270301T180000Z',
  'UID:concert@example.test',
  'SUMMARY:Concert',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('import preview (dry_run)', () => {
  it('a CSV: each row with its line and what would happen; nothing is written', async () => {
    expect((await post('import', { file_name: 'first.csv', content: FIRST_CSV })).status).toBe(200);
    const before = await folderBytes();
    const preview = await post('import', { file_name: 'second.csv', content: SECOND_CSV, dry_run: true });
    expect(preview.status).toBe(200);
    importAnswerSchema.parse(preview.body);
    expect(preview.body.rows).toEqual([
      { line: 2, kind: 'events', title: 'Picnic', action: 'update' },
      { line: 3, kind: 'events', title: 'Choir', action: 'unchanged' },
      {
        line: 4,
        kind: 'events',
        title: 'Fair',
        action: 'create',
        reason: 'also adds the venue "Town Hall", which the calendar did not have',
      },
    ]);
    expect(preview.body.dry_run).toBe(true);
    expect(preview.body.import_id).toBeUndefined();
    expect(await folderBytes()).toEqual(before);
    expect(records().events.map((event) => event.title)).toEqual(['Picnic', 'Choir']);
    // The import itself then does exactly what the preview said.
    const applied = await post('import', { file_name: 'second.csv', content: SECOND_CSV });
    expect(applied.body.rows).toEqual(preview.body.rows);
    expect(applied.body.import_id).toEqual(expect.any(String));
  });

  it('an .ics with a series and a changed date: a row per VEVENT at its BEGIN line', async () => {
    const before = await folderBytes();
    const preview = await post('import', { file_name: 'google.ics', content: ICS, dry_run: true });
    expect(preview.status).toBe(200);
    expect(preview.body.rows).toEqual([
      { line: 4, kind: 'events', title: 'Choir rehearsal', action: 'create' },
      { line: 12, kind: 'events', title: 'Choir rehearsal (later)', action: 'create' },
      { line: 19, kind: 'events', title: 'Concert', action: 'create' },
    ]);
    expect(await folderBytes()).toEqual(before);
    expect(server.engine.store.events.size).toBe(0);
    await post('import', { file_name: 'google.ics', content: ICS });
    const again = await post('import', { file_name: 'google.ics', content: ICS, dry_run: true });
    expect(again.body.rows.map((row: { action: string }) => row.action)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    // A UID given twice: the second VEVENT says it becomes an event of its own.
    const twice = ICS.replace('UID:concert@example.test', 'UID:rehearsal@example.test');
    const repeated = await post('import', { file_name: 'twice.ics', content: twice, dry_run: true });
    expect(repeated.body.rows[2]).toEqual({
      line: 19,
      kind: 'events',
      title: 'Concert',
      action: 'create',
      reason: 'its UID is also that of the event at line 4: it becomes an event of its own',
    });
  });

  it('a large .ics (applied in slices): the preview says what the import does, changed dates late in a series too', async () => {
    // Four daily series up to the horizon (some 2,800 events: a sliced import), each with a date changed near
    // its end. A preview stops making a series when its slice's time is up (the slice is taken back anyway):
    // the late changed dates are still the series' own, not "not among its events".
    const series = [0, 1, 2, 3].map((index) =>
      [
        'BEGIN:VEVENT',
        `UID:daily-${index}@example.test`,
        'DTSTAMP:20260101T000000Z',
        `SUMMARY:Daily ${index}`,
        'DTSTART:20270105T100000Z',
        'DTEND:20270105T110000Z',
        'RRULE:FREQ=DAILY',
        'END:VEVENT',
        'BEGIN:VEVENT',
        `UID:daily-${index}@example.test`,
        'DTSTAMP:20260101T000000Z',
        'RECURRENCE-ID:20280601T100000Z',
        `SUMMARY:Daily ${index} (moved)`,
        'DTSTART:20280601T150000Z',
        'DTEND:20280601T160000Z',
        'END:VEVENT',
      ].join('\r\n'),
    );
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//Test//EN',
      ...series,
      'END:VCALENDAR',
    ].join('\r\n');
    const preview = await post('import', { file_name: 'daily.ics', content: ics, dry_run: true });
    expect(preview.status, JSON.stringify(preview.body).slice(0, 400)).toBe(200);
    expect(server.engine.store.events.size).toBe(0);
    const applied = await post('import', { file_name: 'daily.ics', content: ics });
    expect(applied.status).toBe(200);
    expect(applied.body.rows).toEqual(preview.body.rows);
    expect(preview.body.rows).toHaveLength(8);
    const moved = [...server.engine.store.events.values()].filter((event) => event.title.endsWith('(moved)'));
    expect(moved.map((event) => event.startLocal)).toEqual(Array(4).fill('2028-06-01 15:00:00'));
    expect(server.engine.store.events.size).toBeGreaterThan(2_000);
  });

  it('a JSON dump: every record it restores, at line 0', async () => {
    await post('import', { file_name: 'second.csv', content: SECOND_CSV });
    const dump = JSON.stringify(exportDump(server.engine.store, new Date()), null, 2);
    const empty = await startTestServer();
    try {
      const before = await folderBytes(empty);
      const preview = await post('import', { file_name: 'all.json', content: dump, dry_run: true }, empty);
      expect(preview.status).toBe(200);
      expect(preview.body.rows).toEqual([
        { line: 0, kind: 'venues', title: 'Town Hall', action: 'create' },
        { line: 0, kind: 'events', title: 'Picnic', action: 'create' },
        { line: 0, kind: 'events', title: 'Choir', action: 'create' },
        { line: 0, kind: 'events', title: 'Fair', action: 'create' },
      ]);
      expect(await folderBytes(empty)).toEqual(before);
      expect(empty.engine.store.events.size).toBe(0);
    } finally {
      await empty.close();
    }
  });

  it('a file with problems is refused with each line, preview or not', async () => {
    const bad = `${CSV_HEAD}\nBroken,someday,12:00,,\n`;
    for (const dryRun of [true, false]) {
      const answer = await post('import', { file_name: 'bad.csv', content: bad, dry_run: dryRun });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('import_invalid');
      expect(answer.body.data.problems).toEqual([
        { line: 2, message: expect.stringMatching(/^Event Start Date: "someday" is not a date/) },
      ]);
    }
    expect((await post('import', { file_name: 'a.csv', content: 'x', dry_run: 'yes' })).status).toBe(400);
  });
});

describe('undo of a whole import', () => {
  it('puts every record back exactly as it was; what it created goes to the trash, restorable', async () => {
    await post('import', { file_name: 'first.csv', content: FIRST_CSV });
    const before = records();
    const applied = await post('import', { file_name: 'second.csv', content: SECOND_CSV });
    const history = await admin('imports');
    importHistorySchema.parse(history.body);
    expect(history.body[0]).toMatchObject({
      id: applied.body.import_id,
      file_name: 'second.csv',
      source_id: null,
      created: 2, // Fair and its new venue
      updated: 1,
      trashed: 0,
      undone: false,
    });
    expect(history.body).toHaveLength(2);
    const undone = await post(`imports/${applied.body.import_id}/undo`, {});
    expect(undone.status).toBe(200);
    importUndoAnswerSchema.parse(undone.body);
    expect(undone.body).toEqual({ restored: 1, trashed: 2, kept: [] });
    const after = records();
    // Every field as before; only the bookkeeping moves on (a new revision, for sync to send the undo).
    const bookkeeping = <T extends { revision: number; modifiedUtc: string }>(record: T) => {
      const { revision, modifiedUtc, ...fields } = record;
      return { fields, revision, modifiedUtc };
    };
    const restoredEvents = after.events.filter((event) => event.title !== 'Fair').map(bookkeeping);
    const earlier = before.events.map(bookkeeping);
    expect(restoredEvents.map((event) => event.fields)).toEqual(earlier.map((event) => event.fields));
    const picnicBefore = earlier.find((event) => event.fields.title === 'Picnic')!;
    const picnicAfter = restoredEvents.find((event) => event.fields.title === 'Picnic')!;
    expect(picnicAfter.revision).toBe(picnicBefore.revision + 2);
    // Choir, which the import left as it was, was not touched at all.
    expect(after.events.find((event) => event.title === 'Choir')).toEqual(
      before.events.find((event) => event.title === 'Choir'),
    );
    expect(after.events.find((event) => event.title === 'Fair')?.status).toBe('trash');
    expect(after.venues.map((venue) => [venue.name, venue.status])).toEqual([['Town Hall', 'trash']]);
    const fair = after.events.find((event) => event.title === 'Fair')!;
    const restored = await server.api(`events/${fair.id}`, {
      method: 'POST',
      json: { status: 'publish' },
      auth: server.admin,
    });
    expect(restored.status).toBe(200);
    expect((await admin('imports')).body[0].undone).toBe(true);
    const twice = await post(`imports/${applied.body.import_id}/undo`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('calendar_desk_import_undone');
    expect((await post('imports/nope/undo', {})).status).toBe(404);
  });

  it('leaves a record changed since the import as it is now, and says so', async () => {
    await post('import', { file_name: 'first.csv', content: FIRST_CSV });
    const applied = await post('import', { file_name: 'second.csv', content: SECOND_CSV });
    const picnic = records().events.find((event) => event.title === 'Picnic')!;
    const edited = await server.api(`events/${picnic.id}`, {
      method: 'POST',
      json: { description: 'Changed by hand after the import' },
      auth: server.admin,
    });
    expect(edited.status).toBe(200);
    const undone = await post(`imports/${applied.body.import_id}/undo`, {});
    expect(undone.body).toEqual({
      restored: 0,
      trashed: 2,
      kept: [{ kind: 'events', id: picnic.id, title: 'Picnic' }],
    });
    expect(server.engine.store.events.get(picnic.id)?.description).toBe('Changed by hand after the import');
  });

  it('survives a restart; the history is readable by its owner only', async () => {
    await post('import', { file_name: 'first.csv', content: FIRST_CSV });
    const fields = (event: { revision?: number; modifiedUtc?: string }) => ({
      ...event,
      revision: undefined,
      modifiedUtc: undefined,
    });
    const before = records().events.map(fields);
    const applied = await post('import', { file_name: 'second.csv', content: SECOND_CSV });
    const { dataDir } = server;
    expect((await stat(join(dataDir, HISTORY_FILE))).mode & 0o777).toBe(0o600);
    await server.engine.close();
    const again = await startTestServer({ dataDir });
    try {
      const listed = (await admin('imports', {}, again)).body;
      expect(listed.map((entry: { file_name: string }) => entry.file_name)).toEqual([
        'second.csv',
        'first.csv',
      ]);
      expect(listed[0].id).toBe(applied.body.import_id);
      const undone = await post(`imports/${applied.body.import_id}/undo`, {}, again);
      expect(undone.body).toEqual({ restored: 1, trashed: 2, kept: [] });
      const live = records(again).events.filter((event) => event.status !== 'trash');
      expect(live.map(fields)).toEqual(before);
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
      // The first server's engine is closed already.
      server = { ...server, close: async () => undefined };
    }
  });
  it('a crash between the history and the store write: kept if the import landed, dropped if not', async () => {
    const applied = await post('import', { file_name: 'first.csv', content: FIRST_CSV });
    const { dataDir } = server;
    await server.engine.close();
    server = { ...server, close: () => rm(dataDir, { recursive: true, force: true }) };
    // As a crash leaves it: the entry written ahead, its "landed" mark never written.
    const history = JSON.parse(await readFile(join(dataDir, HISTORY_FILE), 'utf8'));
    const crashed = JSON.stringify([{ ...history[0], pending: true }]);
    await writeFile(join(dataDir, HISTORY_FILE), crashed);
    const landed = await startTestServer({ dataDir });
    try {
      expect((await admin('imports', {}, landed)).body.map((entry: { id: string }) => entry.id)).toEqual([
        applied.body.import_id,
      ]);
      expect((await post(`imports/${applied.body.import_id}/undo`, {}, landed)).body.trashed).toBe(2);
    } finally {
      await landed.close();
    }
    // The same entry in a folder whose store never got the import: nothing to undo, so it is dropped.
    const otherDir = await mkdtemp(join(tmpdir(), 'calendar-desk-test-'));
    await writeFile(join(otherDir, HISTORY_FILE), crashed, { mode: 0o600 });
    const lost = await startTestServer({ dataDir: otherDir });
    try {
      expect((await admin('imports', {}, lost)).body).toEqual([]);
      expect((await post(`imports/${applied.body.import_id}/undo`, {}, lost)).status).toBe(404);
    } finally {
      await lost.close();
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('each import keeps its records in a file of its own: later notes never rewrite them', async () => {
    const first = await post('import', { file_name: 'first.csv', content: FIRST_CSV });
    const { dataDir } = server;
    const firstRecords = join(dataDir, 'import-history', `${first.body.import_id}.json`);
    const written = await stat(firstRecords);
    expect(written.mode & 0o777).toBe(0o600);
    expect((await stat(join(dataDir, 'import-history'))).mode & 0o777).toBe(0o700);
    // The index lists the imports only: no record's text is in it.
    expect(await readFile(join(dataDir, HISTORY_FILE), 'utf8')).not.toContain('Picnic');
    const second = await post('import', { file_name: 'second.csv', content: SECOND_CSV });
    expect((await post(`imports/${second.body.import_id}/undo`, {})).status).toBe(200);
    const after = await stat(firstRecords);
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
    // Its undo reads them back: Choir goes; Picnic, changed since by the other import, stays as it is.
    const undone = await post(`imports/${first.body.import_id}/undo`, {});
    expect(undone.body).toMatchObject({ trashed: 1, kept: [{ title: 'Picnic' }] });
  });

  it('a history written with its records inline (earlier versions) is read, and its records get their files', async () => {
    const applied = await post('import', { file_name: 'first.csv', content: FIRST_CSV });
    const { dataDir } = server;
    await server.engine.close();
    server = { ...server, close: () => rm(dataDir, { recursive: true, force: true }) };
    const id = applied.body.import_id as string;
    const recordsFile = join(dataDir, 'import-history', `${id}.json`);
    const index = JSON.parse(await readFile(join(dataDir, HISTORY_FILE), 'utf8'));
    const inline = [{ ...index[0], records: JSON.parse(await readFile(recordsFile, 'utf8')) }];
    await writeFile(join(dataDir, HISTORY_FILE), JSON.stringify(inline), { mode: 0o600 });
    await rm(join(dataDir, 'import-history'), { recursive: true });
    const again = await startTestServer({ dataDir });
    try {
      expect((await admin('imports', {}, again)).body.map((entry: { id: string }) => entry.id)).toEqual([id]);
      expect(JSON.parse(await readFile(join(dataDir, HISTORY_FILE), 'utf8'))[0].records).toBeUndefined();
      expect((await stat(recordsFile)).isFile()).toBe(true);
      expect((await post(`imports/${id}/undo`, {}, again)).body.trashed).toBe(2);
    } finally {
      await again.close();
    }
  });

  it('a damaged history is set aside: the calendar starts, only earlier undos are lost', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-test-'));
    await writeFile(join(dataDir, HISTORY_FILE), '[{"id": 1', { mode: 0o600 });
    const started = await startTestServer({ dataDir });
    try {
      expect((await admin('imports', {}, started)).body).toEqual([]);
      expect((await readdir(dataDir)).some((name) => name.startsWith(`${HISTORY_FILE}.damaged-`))).toBe(true);
      const applied = await post('import', { file_name: 'first.csv', content: FIRST_CSV }, started);
      expect((await admin('imports', {}, started)).body[0].id).toBe(applied.body.import_id);
    } finally {
      await started.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

const cannotMount = await whySmallDisksCannotBeMounted();

describe.skipIf(cannotMount !== null)(
  cannotMount ? `SKIPPED (${cannotMount}): an import on a full disk` : 'an import on a full disk',
  () => {
    it('answers 503 saying the disk is full and what to do; nothing is imported; with space again it is', async () => {
      const disk = await mountSmallDisk();
      const onDisk = await startTestServer({ dataDir: join(disk.dir, 'data') });
      try {
        await disk.fill();
        const refused = await post('import', { file_name: 'first.csv', content: FIRST_CSV }, onDisk);
        expect(refused.status).toBe(503);
        expect(refused.body.code).toBe('rest_storage_unavailable');
        expect(refused.body.message).toContain(
          `the disk that holds the data folder ${onDisk.dataDir} is full`,
        );
        expect(refused.body.message).toContain('free some space on that disk');
        expect(records(onDisk).events).toEqual([]);
        expect((await admin('imports', {}, onDisk)).body).toEqual([]);

        await rm(join(disk.dir, 'filler'));
        const imported = await post('import', { file_name: 'first.csv', content: FIRST_CSV }, onDisk);
        expect(imported.status).toBe(200);
        expect(
          records(onDisk)
            .events.map((event) => event.title)
            .sort(),
        ).toEqual(['Choir', 'Picnic']);
        expect((await admin('imports', {}, onDisk)).body).toHaveLength(1);
      } finally {
        await onDisk.close();
        await disk.unmount();
      }
    });
  },
);

describe('import jobs', () => {
  it('run in the background: done reaches total, with the result; one at a time', async () => {
    const lines = Array.from(
      { length: 400 },
      (_, index) => `Talk ${index},2027-07-01,${10 + (index % 9)}:00,,`,
    );
    const content = [CSV_HEAD, ...lines].join('\n');
    const [first, second] = await Promise.all([
      post('import-jobs', { file_name: 'talks.csv', content }),
      post('import-jobs', { file_name: 'talks.csv', content }),
    ]);
    expect(first.status).toBe(202);
    importJobStatusSchema.parse(first.body);
    expect(first.body).toMatchObject({ state: 'running', done: 0, result: null, error: null });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/Another import is running/);
    let status = first.body;
    while (status.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = (await admin(`import-jobs/${first.body.id}`)).body;
      importJobStatusSchema.parse(status);
    }
    expect(status).toMatchObject({ state: 'done', done: 400, total: 400, error: null });
    expect(status.result.rows).toHaveLength(400);
    expect(status.result.import_id).toEqual(expect.any(String));
    expect(server.engine.store.events.size).toBe(400);
    const failed = await post('import-jobs', {
      file_name: 'bad.csv',
      content: `${CSV_HEAD}\nX,someday,,,\n`,
    });
    let bad = failed.body;
    while (bad.state === 'running') bad = (await admin(`import-jobs/${failed.body.id}`)).body;
    expect(bad).toMatchObject({ state: 'failed', result: null, error: { code: 'import_invalid' } });
    expect(bad.error.problems).toEqual([{ line: 2, message: expect.any(String) }]);
    expect((await admin('import-jobs/nope')).status).toBe(404);
    const preview = await post('import-jobs', { file_name: 'a.csv', content: FIRST_CSV, dry_run: true });
    expect(preview.status).toBe(400);
    expect(preview.body.data.params.dry_run).toMatch(/preview with POST import/);
  });
});

describe('who may import', () => {
  it('administrators only, on every route', async () => {
    const editor = await server.userHeaders('editor', 'editor');
    const routes: Array<[string, string, unknown]> = [
      ['POST', 'import', { file_name: 'a.csv', content: FIRST_CSV, dry_run: true }],
      ['POST', 'import-jobs', { file_name: 'a.csv', content: FIRST_CSV }],
      ['GET', 'import-jobs/x', undefined],
      ['GET', 'imports', undefined],
      ['POST', 'imports/x/undo', {}],
      ['GET', 'doc', undefined],
    ];
    for (const [method, path, json] of routes) {
      expect((await admin(path, { method, json, auth: {} })).status, `${method} ${path}`).toBe(401);
      expect((await admin(path, { method, json, auth: editor })).status, `${method} ${path}`).toBe(403);
    }
    expect(server.engine.store.events.size).toBe(0);
  });

  it('are listed in /doc with their bodies and answers', async () => {
    const answer = await admin('doc');
    expect(answer.status).toBe(200);
    const doc = answer.body;
    expect(doc.paths['/import'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ImportRequest',
    });
    for (const path of ['/import-jobs', '/import-jobs/{id}', '/imports', '/imports/{id}/undo'])
      expect(doc.paths[path], path).toBeDefined();
    expect(doc.components.schemas.ImportAnswer.properties.rows).toBeDefined();
  });
});
