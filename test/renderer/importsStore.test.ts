// @vitest-environment happy-dom
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { startTestServer, type TestServer } from '../helpers/server';
import { useSessionStore } from '../../src/renderer/src/stores/session';
import { useEventsStore } from '../../src/renderer/src/stores/events';
import { useImportsStore } from '../../src/renderer/src/stores/imports';

/**
 * The Import screen's store against a real server: the preview writes nothing, the import runs as a job
 * followed to its end, the history lists it and its undo puts the calendar back. (Addresses are shown in
 * test/e2e/import.e2e.test.ts: here the engine would fetch them with happy-dom's fetch, which applies CORS.)
 */
let server: TestServer;

const ics = (events: { uid: string; title: string }[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Calendar Desk tests//EN',
    ...events.flatMap((event) => [
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      'DTSTAMP:20260101T000000Z',
      'DTSTART:20270610T160000Z',
      'DTEND:20270610T180000Z',
      `SUMMARY:${event.title}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

async function titles(): Promise<string[]> {
  const listed = await server.api('events?start_date=2027-06-01&end_date=2027-06-30&status=any', {
    auth: server.admin,
  });
  return (listed.body.events as { title: string }[]).map((event) => event.title).sort();
}

beforeAll(async () => {
  server = await startTestServer();
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `${server.engine.origin}/`,
  );
});
afterAll(() => server.close());

beforeEach(async () => {
  setActivePinia(createPinia());
  window.calendarDesk = {
    connection: async () => ({ apiRoot: server.engine.apiRoot, token: server.engine.adminToken }),
    appVersion: '0.0.0-test',
    openExternal: async () => true,
  };
  await useSessionStore().start();
});

describe('imports store, files', () => {
  it('previews without writing, imports as a job to its end, lists it, and undoes it', async () => {
    const imports = useImportsStore();
    const events = useEventsStore();
    const file = {
      file_name: 'gala.ics',
      content: ics([
        { uid: 'gala@example.org', title: 'Gala' },
        { uid: 'open@example.org', title: 'Open day' },
      ]),
    };
    const preview = await imports.preview(file);
    expect(preview.rows.map((row) => [row.title, row.action])).toEqual([
      ['Gala', 'create'],
      ['Open day', 'create'],
    ]);
    expect(await titles()).toEqual([]);

    const revision = events.revision;
    const finished = await imports.run(file);
    expect(finished.state).toBe('done');
    expect(finished.done).toBe(finished.total);
    expect(imports.job).toEqual(finished);
    expect(finished.result?.import_id).toEqual(expect.any(String));
    expect(await titles()).toEqual(['Gala', 'Open day']);
    // The calendar reads again, and the history already lists the import.
    expect(events.revision).toBeGreaterThan(revision);
    expect(imports.history[0]).toMatchObject({ id: finished.result!.import_id, file_name: 'gala.ics' });

    const undone = await imports.undo(finished.result!.import_id!);
    expect(undone).toMatchObject({ trashed: 2, kept: [] });
    expect(await titles()).toEqual([]);
    expect(imports.history[0].undone).toBe(true);
  });
});
