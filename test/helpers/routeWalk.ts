import { expect } from 'vitest';
import qs from 'qs';
import { ADMIN_NAMESPACE, NAMESPACE, WP_V2_NAMESPACE } from '../../src/shared/enums';
import { namespaceRoutes } from '../../src/main/server/routes';
import { adminRoutes } from '../../src/main/server/routes/admin';
import { wpV2TermRoutes } from '../../src/main/server/routes/wpV2Terms';
import type { RouteDef } from '../../src/main/server/routes/table';
import { SignInSessions } from '../../src/main/server/signInSessions';
import { AuthThrottle } from '../../src/main/server/middleware/auth';
import { eventBody, type TestServer } from './server';
import { googleCalendar, startCalendarSite } from './calendarSite';

/** Tests that walk every route of the API: the routes, and records for their path parameters. */

export interface RegisteredRoute {
  namespace: string;
  route: RouteDef;
}

/** Every route of the namespaces, from the route tables the server registers. */
export function registeredRoutes(server: TestServer): RegisteredRoute[] {
  // Only the route tables are read: sessions and throttle of their own are never used.
  const admin = adminRoutes({
    store: server.engine.store,
    clock: () => new Date(),
    sessions: new SignInSessions(),
    throttle: new AuthThrottle(),
  });
  return [
    ...namespaceRoutes().map((route) => ({ namespace: NAMESPACE, route })),
    ...admin.map((route) => ({ namespace: ADMIN_NAMESPACE, route })),
    ...wpV2TermRoutes().map((route) => ({ namespace: WP_V2_NAMESPACE, route })),
  ];
}

/** Values for path parameters, by the route's first segment (`events` → `{id, slug}`). */
export type PathValues = Record<string, Record<string, string>>;

/**
 * Creates, as the admin, a record behind every path parameter: an event with a venue, an organizer, a
 * category and a tag, a saved remote and a (dry-run) sync job against an address nobody listens on, and an
 * import (run as a job), and an import address that no longer answers.
 * `login` names the user the user routes act on.
 */
export async function seedRouteRecords(server: TestServer, login: string): Promise<PathValues> {
  const event = await server.api('events', {
    method: 'POST',
    auth: server.admin,
    json: eventBody('Walked', 3, {
      venue: { venue: 'Walk Hall' },
      organizer: [{ organizer: 'Walk Org' }],
      categories: ['Walk category'],
      tags: ['Walk tag'],
    }),
  });
  expect(event.status).toBe(201);
  const admin = (path: string, init: Parameters<TestServer['api']>[1] = {}) =>
    server.api(`${server.engine.apiRoot}${ADMIN_NAMESPACE}/${path}`, { auth: server.admin, ...init });
  const remotes = await admin('remotes', {
    method: 'PUT',
    json: [{ name: 'Site', root: 'http://127.0.0.1:1/wp-json/', auth_type: 'token', secret: 'sealed' }],
  });
  expect(remotes.status).toBe(200);
  // An import address, followed while a calendar answers there, which then stops answering (like the remote).
  const site = await startCalendarSite();
  site.serve('/walk.ics', { body: googleCalendar() });
  const source = await admin('import-sources', { method: 'POST', json: { url: `${site.origin}/walk.ics` } });
  await site.close();
  expect(source.status).toBe(201);
  const job = await admin('sync-jobs', {
    method: 'POST',
    json: { remote: 'http://127.0.0.1:1/wp-json/', auth: null, dry_run: true },
  });
  expect(job.status).toBe(202);
  const importJob = await admin('import-jobs', {
    method: 'POST',
    json: { file_name: 'walk.csv', content: 'Event Name,Event Start Date\nWalk import,2027-05-01\n' },
  });
  expect(importJob.status).toBe(202);
  let imported = importJob.body;
  while (imported.state === 'running') imported = (await admin(`import-jobs/${importJob.body.id}`)).body;
  expect(imported.result?.import_id).toEqual(expect.any(String));
  return {
    events: { id: String(event.body.id), slug: event.body.slug },
    venues: { id: String(event.body.venue.id), slug: event.body.venue.slug },
    organizers: { id: String(event.body.organizer[0].id), slug: event.body.organizer[0].slug },
    categories: { id: String(event.body.categories[0].id) },
    tags: { id: String(event.body.tags[0].id) },
    // wp/v2 twins of the term routes, and its taxonomies.
    tribe_events_cat: { id: String(event.body.categories[0].id) },
    taxonomies: { taxonomy: 'post_tag' },
    users: { login },
    remotes: { id: remotes.body[0].id },
    'sync-jobs': { id: job.body.id },
    'import-jobs': { id: importJob.body.id },
    imports: { id: imported.result.import_id },
    'import-sources': { id: source.body.id },
  };
}

/** The first segment of a route's path (`/events/:id` → `events`). */
export const sectionOf = (route: RouteDef) => route.path.split('/')[1];

/** The route's path with its parameters filled in (encoded), `overrides` first. */
export function fillPath(
  route: RouteDef,
  values: PathValues,
  overrides: Record<string, string> = {},
): string {
  return route.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = overrides[name] ?? values[sectionOf(route)]?.[name];
    if (value === undefined) throw new Error(`no value for :${name} of ${route.path}`);
    // qs encodes what encodeURIComponent refuses (a lone surrogate).
    return qs.stringify({ v: value }).slice(2);
  });
}
