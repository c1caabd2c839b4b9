import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_NAMESPACE, NAMESPACE } from '../../src/shared/enums';
import { apiRoutes } from '../../src/shared/api/routes';
import { namespaceRoutes } from '../../src/main/server/routes';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';
import { callRoute, okBody } from '../helpers/typedApi';

/** `events/:id` as the route table's documented path (`/events/{id}`). */
const docPathOf = (path: string) => `/${path.replace(/:(\w+)/g, '{$1}')}`;

describe('the shared route map (src/shared/api/routes.ts)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** The map's entries the server has no route for with that method. */
  async function missingRoutes(entries: [string, { method: string; namespace: string; path: string }][]) {
    // The public namespace's route table itself; the admin one through its OpenAPI document, which the server
    // writes from its route table (every route, every method).
    const publicMethods = new Map<string, string[]>();
    for (const route of namespaceRoutes()) {
      publicMethods.set(
        route.docPath,
        route.endpoints.flatMap((endpoint) => endpoint.methods),
      );
    }
    const doc = await server.api(`${server.engine.origin}/wp-json/${ADMIN_NAMESPACE}/doc`, {
      auth: server.admin,
    });
    expect(doc.status).toBe(200);
    const adminPaths = doc.body.paths as Record<string, Record<string, unknown>>;
    const missing: string[] = [];
    for (const [key, spec] of entries) {
      const docPath = docPathOf(spec.path);
      const methods =
        spec.namespace === NAMESPACE
          ? (publicMethods.get(docPath) ?? [])
          : Object.keys(adminPaths[docPath] ?? {}).map((method) => method.toUpperCase());
      if (!methods.includes(spec.method)) missing.push(key);
    }
    return missing;
  }

  it('names only routes the server has, each with the method the map says', async () => {
    for (const [key, spec] of Object.entries(apiRoutes)) expect(key).toBe(`${spec.method} ${spec.path}`);
    expect(await missingRoutes(Object.entries(apiRoutes))).toEqual([]);
  });

  it('finds an entry the server has no route for, or not with that method', async () => {
    expect(
      await missingRoutes([
        ['unknown path', { method: 'GET', namespace: NAMESPACE, path: 'events/:id/nothing' }],
        ['wrong method', { method: 'DELETE', namespace: ADMIN_NAMESPACE, path: 'remotes/check' }],
        ['wrong namespace', { method: 'GET', namespace: NAMESPACE, path: 'remotes' }],
        ['present', { method: 'GET', namespace: ADMIN_NAMESPACE, path: 'remotes' }],
      ]),
    ).toEqual(['unknown path', 'wrong method', 'wrong namespace']);
  });
});

describe('real answers of the main routes match the response schemas of the map', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('events: create, read for editing, change, list in the calendar, trash', async () => {
    const created = await okBody(server, 'POST events', { body: eventBody('Choir rehearsal', 2) });
    expect(created.title).toBe('Choir rehearsal');
    const read = await okBody(server, 'GET events/:id', {
      params: { id: created.id },
      query: { context: 'edit' },
    });
    expect(read.id).toBe(created.id);
    const changed = await okBody(server, 'POST events/:id', {
      params: { id: created.id },
      body: { title: 'Choir rehearsal (moved)' },
    });
    expect(changed.title).toBe('Choir rehearsal (moved)');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const list = await okBody(server, 'GET calendar', { query: { start_date: day(0), end_date: day(5) } });
    expect(list.events.map((event) => event.id)).toContain(created.id);
    const trashed = await okBody(server, 'DELETE events/:id', { params: { id: created.id } });
    expect(trashed.id).toBe(created.id);
  });

  it('venues and organizers: create, change, merge, trash', async () => {
    const hall = await okBody(server, 'POST venues', { body: { venue: 'Town hall' } });
    const hall2 = await okBody(server, 'POST venues', { body: { venue: 'Town hall (old name)' } });
    expect(
      (await okBody(server, 'POST venues/:id', { params: { id: hall.id }, body: { city: 'Brno' } })).city,
    ).toBe('Brno');
    const merged = await okBody(server, 'POST venues/:id/merge', {
      params: { id: hall2.id },
      body: { into: hall.id },
    });
    expect(merged.kept.id).toBe(hall.id);
    expect((await okBody(server, 'DELETE venues/:id', { params: { id: hall.id } })).id).toBe(hall.id);
    const choir = await okBody(server, 'POST organizers', { body: { organizer: 'Choir' } });
    expect(
      (
        await okBody(server, 'POST organizers/:id', {
          params: { id: choir.id },
          body: { email: 'choir@example.org' },
        })
      ).email,
    ).toBe('choir@example.org');
    expect((await okBody(server, 'DELETE organizers/:id', { params: { id: choir.id } })).id).toBe(choir.id);
  });

  it('imports: a preview, a job, the history and its undo, the sources list', async () => {
    const file = {
      file_name: 'club.ics',
      content: [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//EN',
        'BEGIN:VEVENT',
        'UID:club-1@example.org',
        'DTSTAMP:20260101T000000Z',
        'DTSTART:20300105T180000Z',
        'DTEND:20300105T200000Z',
        'SUMMARY:Club night',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    };
    const preview = await okBody(server, 'POST import', { body: { ...file, dry_run: true } });
    expect(preview.rows.map((row) => row.action)).toEqual(['create']);
    let job = await okBody(server, 'POST import-jobs', { body: file });
    while (job.state === 'running')
      job = await okBody(server, 'GET import-jobs/:id', { params: { id: job.id } });
    expect(job.state).toBe('done');
    const history = await okBody(server, 'GET imports');
    expect(history[0]?.file_name).toBe('club.ics');
    const undone = await okBody(server, 'POST imports/:id/undo', {
      params: { id: history[0]!.id },
      body: {},
    });
    expect(undone.trashed).toBe(1);
    expect(await okBody(server, 'GET import-sources')).toEqual([]);
  });

  it('session: a token exchanged for a browser session', async () => {
    const session = await callRoute(server, 'POST session', { body: {} });
    expect(session.ok && session.body.role).toBe('administrator');
    expect(session.headers.get('set-cookie')).toBeTruthy();
  });

  it('feeds: their addresses, new ones, none', async () => {
    const feeds = await okBody(server, 'GET feeds');
    expect(feeds.enabled).toBe(true);
    const regenerated = await okBody(server, 'POST feeds/regenerate', { body: {} });
    expect(regenerated.calendar?.http).not.toBe(feeds.calendar?.http);
    expect((await okBody(server, 'POST feeds/revoke', { body: {} })).enabled).toBe(false);
  });

  it('categories and tags: create, change, list, delete for good', async () => {
    for (const taxonomy of ['categories', 'tags'] as const) {
      const made = await okBody(server, `POST ${taxonomy}`, { body: { name: 'Concerts' } });
      expect(made.name).toBe('Concerts');
      const renamed = await okBody(server, `POST ${taxonomy}/:id`, {
        params: { id: made.id },
        body: { name: 'Concerts and recitals' },
      });
      expect(renamed.name).toBe('Concerts and recitals');
      const listed = await okBody(server, `GET ${taxonomy}`, { query: { hide_empty: false } });
      expect(listed.total).toBe(1);
      expect((await okBody(server, `DELETE ${taxonomy}/:id`, { params: { id: made.id } })).id).toBe(made.id);
    }
  });

  it('archives: a page of events, venues and organizers with their totals', async () => {
    await okBody(server, 'POST events', { body: eventBody('Open rehearsal', 3) });
    await okBody(server, 'POST venues', { body: { venue: 'Parish hall' } });
    await okBody(server, 'POST organizers', { body: { organizer: 'Parish choir' } });
    const events = await okBody(server, 'GET events', { query: { per_page: 1 } });
    expect(events.events.map((event) => event.title)).toEqual(['Open rehearsal']);
    expect((await okBody(server, 'GET venues')).venues.map((venue) => venue.venue)).toContain('Parish hall');
    expect((await okBody(server, 'GET organizers')).total).toBeGreaterThanOrEqual(1);
  });

  it('settings: read, and changed by an administrator', async () => {
    const settings = await okBody(server, 'GET settings');
    expect(settings.user.role).toBe('administrator');
    const changed = await okBody(server, 'PUT settings', {
      body: { site_name: 'Choir of St. Anne', currency_symbol: '€', currency_position: 'postfix' },
    });
    expect([changed.site_name, changed.currency_symbol, changed.currency_position]).toEqual([
      'Choir of St. Anne',
      '€',
      'postfix',
    ]);
  });

  it('calendar apps: the CalDAV addresses, and an application password shown once', async () => {
    const addresses = await okBody(server, 'GET caldav');
    expect(addresses.calendar.startsWith(server.engine.origin)).toBe(true);
    const made = await okBody(server, 'POST app-passwords', { body: { name: 'Thunderbird' } });
    expect(made.name).toBe('Thunderbird');
    expect(made.password.length).toBeGreaterThan(10);
    expect(made.calendar).toBe(addresses.calendar);
  });

  it('sync: the saved remotes list', async () => {
    expect(await okBody(server, 'GET remotes')).toEqual([]);
  });

  it('a failure is the API error, not a body of the success schema', async () => {
    const result = await callRoute(server, 'GET events/:id', { params: { id: 999_999 } });
    expect(result.ok).toBe(false);
    expect(result.status).toBe(404);
    if (!result.ok) expect(typeof result.body.code).toBe('string');
  });
});
