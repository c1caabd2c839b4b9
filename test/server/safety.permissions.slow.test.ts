import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_NAMESPACE, NAMESPACE, WP_V2_NAMESPACE } from '../../src/shared/enums';

/** Namespaces whose reads are public: the calendar's, and WordPress' read-only term routes. */
const PUBLIC_NAMESPACES = [NAMESPACE, WP_V2_NAMESPACE];
import { anyone, signingIn } from '../../src/main/server/routes/permissions';
import { savedRemotes } from '../../src/main/sync/remotes';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { fillPath, registeredRoutes, seedRouteRecords, type PathValues } from '../helpers/routeWalk';
import { rawRequest, type RawResponse } from './safety.http';

/**
 * Who gets in is decided by the endpoint that answers (WordPress' `permission_callback`), never by how the
 * path is spelled: every registered route of both namespaces, taken from the route tables the server
 * registers, is called in many spellings with every method, without credentials and as a subscriber.
 */
let server: TestServer;
let port: number;
let subscriber: Record<string, string>;
/** Records that exist, for the path parameters. */
let pathValues: PathValues;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  server = await startTestServer();
  port = server.engine.port;
  subscriber = await server.userHeaders('sam', 'subscriber');
  await server.userHeaders('victim', 'author');
  pathValues = await seedRouteRecords(server, 'victim');
});
afterAll(() => server.close());

/** A body that passes the route's validation, so that only the permission check can refuse it. */
function bodyFor(namespace: string, routePath: string, method: string): { type: string; body: Buffer } {
  const json = (value: unknown) => ({ type: 'application/json', body: Buffer.from(JSON.stringify(value)) });
  const section = routePath.split('/')[1];
  if (namespace === ADMIN_NAMESPACE) {
    if (section === 'media') return { type: 'image/png', body: PNG };
    if (section === 'remotes' && method === 'PUT') {
      return json([{ name: 'Evil', root: 'http://127.0.0.1:2/wp-json/', auth_type: 'none' }]);
    }
    return json({
      login: 'mallory',
      role: 'administrator',
      timezone: 'Pacific/Fiji',
      site_name: 'Owned',
      remote: 'http://127.0.0.1:2/wp-json/',
      url: 'http://127.0.0.1:2/evil.ics',
      auth: null,
      file_name: 'evil.csv',
      content: 'Event Name,Event Start Date,Event Start Time\nEvil,2027-05-01,12:00\n',
    });
  }
  const bodies: Record<string, unknown> = {
    events: eventBody('Walk-in', 5),
    venues: { venue: 'Walk-in venue' },
    organizers: { organizer: 'Walk-in organizer' },
    categories: { name: 'Walk-in category' },
    tags: { name: 'Walk-in tag' },
  };
  return json(bodies[section] ?? {});
}

/** Mixed case: every other letter upper case. */
const mixed = (text: string) =>
  [...text].map((char, index) => (index % 2 ? char.toUpperCase() : char.toLowerCase())).join('');

/** Percent-encodes the first letter of every segment (and `-`), which a router must not mistake. */
const encodeLetters = (path: string) =>
  path
    .split('/')
    .map((segment) =>
      segment === ''
        ? segment
        : `%${segment.charCodeAt(0).toString(16).toUpperCase()}${segment.slice(1).replace(/-/g, '%2D')}`,
    )
    .join('/');

/** The spellings a client or an attacker can use for one route (the first is the plain one). */
function spellings(namespace: string, path: string, query: string): string[] {
  const plain = `/${namespace}${path}`;
  const and = query ? `&${query}` : '';
  const withQuery = (target: string) => (query ? `${target}?${query}` : target);
  return [
    withQuery(`/wp-json${plain}`),
    withQuery(`/wp-json${plain}/`),
    withQuery(`/WP-JSON${plain.toUpperCase()}`),
    withQuery(`/wp-jSon${mixed(plain)}`),
    withQuery(`/it/wp-json${plain}`),
    withQuery(`/PL/wp-json${mixed(plain)}`),
    withQuery(`/en/WP-JSON${plain.toUpperCase()}/`),
    withQuery(`/wp-json${encodeLetters(plain)}`),
    withQuery(`/wp-json/${namespace.replace(/\//g, '%2F')}${path}`),
    withQuery(`//wp-json${plain}`),
    withQuery(`/wp-json/${plain}`),
    withQuery(`/wp-json/x/..${plain}`),
    `/?rest_route=${plain}${and}`,
    `/?rest_route=${mixed(plain)}${and}`,
    `/?rest_route=${encodeURIComponent(plain.toUpperCase())}${and}`,
    `/index.php?rest_route=${plain}${and}`,
    `/INDEX.PHP?rest_route=${mixed(plain)}/${and}`,
    `/it/?rest_route=${plain}${and}`,
  ];
}

/** Methods to try: every HTTP method, and POST carrying another one as WordPress clients do. */
const METHODS: Array<{ method: string; label: string; override?: string }> = [
  ...['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((method) => ({
    method,
    label: method,
  })),
  { method: 'POST', label: 'POST as DELETE', override: 'DELETE' },
  { method: 'POST', label: 'POST as PUT', override: 'PUT' },
];

interface Attempt {
  label: string;
  /** The method the server acts on (the override of a POST, if any). */
  method: string;
  path: string;
  plain: boolean;
  /** The route has an endpoint for this method (the plain spelling must reach its permission check). */
  declared: boolean;
  /** Anyone may do this (reads of the public namespace). */
  isPublic: boolean;
  namespace: string;
  routePath: string;
  send: () => Promise<RawResponse>;
}

function attempts(auth: Record<string, string>): Attempt[] {
  const list: Attempt[] = [];
  for (const { namespace, route } of registeredRoutes(server)) {
    const methods = new Set(route.endpoints.flatMap((endpoint) => endpoint.methods as string[]));
    // Routes with a required argument get a valid one: the permission check runs after validation.
    const required: Record<string, string> = { '/media': 'search=walk', '/export': 'format=ics' };
    const query = namespace === ADMIN_NAMESPACE ? (required[route.path] ?? '') : '';
    const paths = spellings(namespace, fillPath(route, pathValues), query);
    for (const { method, label, override } of METHODS) {
      const effective = override ?? method;
      const { type, body } = bodyFor(namespace, route.path, effective);
      const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(method);
      for (const [index, path] of paths.entries()) {
        list.push({
          label: `${label} ${path}`,
          method: effective,
          path,
          plain: index === 0,
          declared: methods.has(effective) || (effective === 'HEAD' && methods.has('GET')),
          isPublic: PUBLIC_NAMESPACES.includes(namespace) && ['GET', 'HEAD', 'OPTIONS'].includes(effective),
          namespace,
          routePath: route.path,
          send: () =>
            rawRequest(port, {
              method,
              path,
              headers: {
                ...auth,
                ...(override ? { 'X-HTTP-Method-Override': override } : {}),
                ...(hasBody ? { 'Content-Type': type } : {}),
              },
              body: hasBody ? body : undefined,
            }),
        });
      }
    }
  }
  return list;
}

/** Runs the attempts a few at a time and returns each with its answer. */
async function run(list: Attempt[]): Promise<Array<{ attempt: Attempt; response: RawResponse }>> {
  const results: Array<{ attempt: Attempt; response: RawResponse }> = [];
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const attempt = list[next++];
      results.push({ attempt, response: await attempt.send() });
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return results;
}

/** The answers that are not the permission check's refusal with this status. */
function refusalsOtherThan(results: Array<{ attempt: Attempt; response: RawResponse }>, status: number) {
  return results
    .filter(
      ({ attempt, response }) =>
        response.status !== status ||
        // A HEAD answer has no body to tell its code.
        (!attempt.label.startsWith('HEAD ') && response.json?.code !== 'rest_forbidden'),
    )
    .map(({ attempt, response }) => `${attempt.label}: ${response.status} ${response.text.slice(0, 200)}`);
}

/** What a walk must leave as it was. */
function snapshot() {
  const store = server.engine.store;
  return {
    version: store.version,
    users: [...store.users.values()].map((user) => `${user.login}:${user.role}:${user.appPasswords.length}`),
    remotes: savedRemotes(store).map((remote) => `${remote.id}:${remote.root}`),
    settings: JSON.stringify(store.settings),
    media: store.media.size,
    records: [store.events.size, store.venues.size, store.organizers.size, store.terms.size].join(','),
  };
}

describe('the route tables', () => {
  it('declare a permission check on every endpoint; only reads of the public namespace are open', () => {
    const routes = registeredRoutes(server);
    expect(routes.filter(({ namespace }) => namespace === ADMIN_NAMESPACE).length).toBeGreaterThanOrEqual(10);
    for (const { namespace, route } of routes) {
      for (const endpoint of route.endpoints) {
        expect(typeof endpoint.permission, `${route.path}`).toBe('function');
        // Signing in is open by nature; the handler checks the code or credentials sent (auth.session.test.ts).
        if (endpoint.permission === signingIn)
          expect([namespace, route.path, endpoint.methods]).toEqual([ADMIN_NAMESPACE, '/session', ['POST']]);
        if (endpoint.permission === anyone) {
          expect(PUBLIC_NAMESPACES, `${endpoint.methods} ${route.path} is open to anyone`).toContain(
            namespace,
          );
          expect(endpoint.methods, `${route.path} is open to anyone`).toEqual(['GET']);
        }
      }
    }
  });
});

/** Some 4,000 requests per walk: more than the default test time on a busy machine. */
const WALK_TIMEOUT = 180_000;

describe('every route, every spelling, every method', () => {
  it(
    'gives nobody without credentials anything that needs them, and changes nothing',
    async () => {
      const before = snapshot();
      const results = await run(attempts({}));
      expect(results.length).toBeGreaterThan(3000);
      const opened = results.filter(
        ({ attempt, response }) => !attempt.isPublic && response.status >= 200 && response.status < 300,
      );
      expect(
        opened.map(({ attempt, response }) => `${response.status} ${attempt.label}`),
        'answered 2xx without credentials',
      ).toEqual([]);
      // The plain spelling reaches the endpoint, whose permission check (not validation) refuses: 401.
      const plainRefusals = results.filter(
        ({ attempt }) => attempt.plain && attempt.declared && !attempt.isPublic,
      );
      expect(plainRefusals.length).toBeGreaterThan(40);
      expect(refusalsOtherThan(plainRefusals, 401)).toEqual([]);
      for (const { attempt, response } of results) expect(response.status, attempt.label).toBeLessThan(500);
      expect(snapshot()).toEqual(before);
    },
    WALK_TIMEOUT,
  );

  it(
    'gives a subscriber nothing of the admin namespace but its own settings, and no writes',
    async () => {
      const before = snapshot();
      const results = await run(attempts(subscriber));
      // Any signed-in user reads the settings: the app learns the time zone and its own role there.
      // And signs a browser in and out as itself (a session or a one-time code of its own, nothing more).
      const forSubscribers = (attempt: Attempt) =>
        attempt.isPublic ||
        (attempt.routePath === '/settings' && ['GET', 'HEAD'].includes(attempt.method)) ||
        (attempt.routePath === '/session' && ['POST', 'DELETE'].includes(attempt.method)) ||
        (attempt.routePath === '/signin-codes' && attempt.method === 'POST') ||
        // The calendar screens' compact list: the events archive's own rules, so only what /events shows them.
        (attempt.routePath === '/calendar' && ['GET', 'HEAD'].includes(attempt.method)) ||
        // Connecting a calendar app (CalDAV, issue 30): its own addresses and an application password of its own.
        (attempt.routePath === '/caldav' && ['GET', 'HEAD'].includes(attempt.method)) ||
        (attempt.routePath === '/app-passwords' && attempt.method === 'POST');
      const opened = results.filter(
        ({ attempt, response }) =>
          !forSubscribers(attempt) && response.status >= 200 && response.status < 300,
      );
      expect(
        opened.map(({ attempt, response }) => `${response.status} ${attempt.label}`),
        'answered 2xx to a subscriber',
      ).toEqual([]);
      const plainRefusals = results.filter(
        ({ attempt }) => attempt.plain && attempt.declared && !forSubscribers(attempt),
      );
      expect(refusalsOtherThan(plainRefusals, 403)).toEqual([]);
      // The subscriber's credentials did work: the settings answer them.
      const settings = results.find(
        ({ attempt }) => attempt.plain && attempt.routePath === '/settings' && attempt.method === 'GET',
      );
      expect(settings?.response.json?.user).toEqual({ login: 'sam', role: 'subscriber' });
      for (const { attempt, response } of results) expect(response.status, attempt.label).toBeLessThan(500);
      // Its own application passwords are all it may add (calendar apps sign in with them); nothing else changes.
      const withoutOwnPasswords = (state: ReturnType<typeof snapshot>) => ({
        ...state,
        version: 0,
        users: state.users.map((user) => (user.startsWith('sam:') ? 'sam' : user)),
      });
      expect(withoutOwnPasswords(snapshot())).toEqual(withoutOwnPasswords(before));
    },
    WALK_TIMEOUT,
  );
});

describe('the spellings that reach a route serve those who may use it', () => {
  it('identifies the caller and reads the body whatever the spelling', async () => {
    for (const [index, path] of [
      `/WP-JSON/${NAMESPACE.toUpperCase()}/TAGS`,
      `/it/wp-json/${mixed(NAMESPACE)}/tags/`,
      `/?rest_route=/${mixed(NAMESPACE)}/Tags`,
    ].entries()) {
      const created = await rawRequest(port, {
        method: 'POST',
        path,
        headers: { ...server.admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `Spelled ${index}` }),
      });
      expect(created.status, path).toBe(201);
      expect(created.json.name).toBe(`Spelled ${index}`);
    }
    const users = await rawRequest(port, {
      path: `/PL/WP-JSON/${ADMIN_NAMESPACE.toUpperCase()}/USERS`,
      headers: server.admin,
    });
    expect(users.status).toBe(200);
    expect(users.json.map((user: { login: string }) => user.login)).toContain('admin');
  });

  it('takes a picture upload as its raw body under any spelling of the media route', async () => {
    for (const path of [
      `/wp-json/${ADMIN_NAMESPACE}/media`,
      `/WP-JSON/${ADMIN_NAMESPACE.toUpperCase()}/MEDIA/`,
      `/?rest_route=/${mixed(ADMIN_NAMESPACE)}/Media`,
    ]) {
      const uploaded = await rawRequest(port, {
        method: 'POST',
        path,
        headers: { ...server.admin, 'Content-Type': 'image/png' },
        body: PNG,
      });
      expect(uploaded.status, path).toBe(201);
      expect(uploaded.json).toMatchObject({ id: expect.any(Number), extension: 'png' });
    }
  });
});
