import fc from 'fast-check';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_NAMESPACE } from '../../src/shared/enums';
import type { Endpoint, RouteDef } from '../../src/main/server/routes/table';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import {
  fillPath,
  registeredRoutes,
  sectionOf,
  seedRouteRecords,
  type PathValues,
} from '../helpers/routeWalk';
import { rawRequest } from './safety.http';

/**
 * Hostile values for every argument of every route of both namespaces (taken from the route specs), in the
 * query (PHP-style `a[b]=1`, as WordPress reads it) and in JSON bodies, by callers of every kind: the answer
 * is never a 5xx. Bad input is the client's error, said as one (400 rest_invalid_param & co).
 */
let server: TestServer;
let port: number;
let callers: Array<Record<string, string>>;
const logged: string[] = [];
/** Records that exist, for the path parameters. */
let pathValues: PathValues;

interface FuzzedEndpoint {
  label: string;
  namespace: string;
  route: RouteDef;
  endpoint: Endpoint;
  method: string;
}

function fuzzedEndpoints(): FuzzedEndpoint[] {
  return registeredRoutes(server).flatMap(({ namespace, route }) =>
    route.endpoints.flatMap((endpoint) =>
      endpoint.methods.map((method) => ({
        label: `${method} ${namespace}${route.path}`,
        namespace,
        route,
        endpoint,
        method,
      })),
    ),
  );
}

beforeAll(async () => {
  server = await startTestServer({ log: (message) => logged.push(message) });
  port = server.engine.port;
  callers = [server.admin, {}, await server.userHeaders('fuzz-author', 'author')];
  pathValues = await seedRouteRecords(server, 'fuzz-author');
});
afterAll(() => server.close());

/** Values a hostile or careless client sends where a scalar, a list or an object is expected. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'NaN',
    '-NaN',
    'Infinity',
    '-Infinity',
    '1e999',
    '-0',
    '0x10',
    '9'.repeat(400),
    '99999999999999999999',
    '-99999999999999999999',
    '1.5',
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    'toString',
    '%',
    '%E0%A4%A',
    '\u0000',
    '\uD800',
    '💥'.repeat(50),
    'a'.repeat(100_000),
    '<script>alert(1)</script>',
    '2030-02-30 25:61:61',
    'next tuesday +9999999 years',
    '@99999999999999',
    Number.MAX_SAFE_INTEGER + 2,
    -1,
    0,
    1e308,
    -1e308,
    0.1,
    true,
    false,
    null,
    [],
    {},
    [[[[]]]],
    { a: { b: { c: 1 } } },
    [{ id: 'x' }],
    [{ id: { id: 1 } }],
    { id: [] },
    { __proto__: { admin: true } },
    ['1', { a: 1 }, [2]],
  ),
  fc.integer(),
  fc.double(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.jsonValue({ maxDepth: 4 }),
  fc.array(fc.oneof(fc.integer(), fc.string(), fc.object({ maxDepth: 2 })), { maxLength: 5 }),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

/** A body that passes validation, so that the fuzzed argument is what is judged. */
function validBase(target: FuzzedEndpoint): Record<string, unknown> {
  const section = sectionOf(target.route);
  if (target.namespace === ADMIN_NAMESPACE) {
    return {
      login: `fuzz-${Math.random().toString(36).slice(2, 10)}`,
      role: 'contributor',
      search: 'fuzz',
      file_name: 'events.csv',
      content: 'Event Name,Event Start Date,Event Start Time\nFuzz,2027-05-01,12:00\n',
      remote: 'http://127.0.0.1:1/wp-json/',
      auth: null,
      dry_run: true,
    };
  }
  if (target.method === 'GET' || target.method === 'DELETE') return {};
  const bodies: Record<string, Record<string, unknown>> = {
    events: eventBody('Fuzz-made', 4),
    venues: { venue: 'Fuzz-made venue' },
    organizers: { organizer: 'Fuzz-made organizer' },
    categories: { name: `Fuzz-made ${Math.random()}` },
    tags: { name: `Fuzz-made ${Math.random()}` },
  };
  return bodies[section] ?? {};
}

const pathOf = (target: FuzzedEndpoint, overrides: Record<string, string>) =>
  `/wp-json/${target.namespace}${fillPath(target.route, pathValues, overrides)}`;

interface FuzzSample {
  /** Argument names with hostile values. */
  hostileArgs: Array<[string, unknown]>;
  inQuery: boolean;
  /** Sent as the whole JSON body instead (null: the valid body with the hostile arguments). */
  wholeBody: unknown;
  /** Index into `callers`: the admin, nobody, an author. */
  caller: number;
}

/** One request: some arguments hostile, sent in the query or in the JSON body. */
const requestArbitrary = (target: FuzzedEndpoint): fc.Arbitrary<FuzzSample> => {
  const names = Object.keys(target.endpoint.args);
  return fc.record({
    hostileArgs: fc.uniqueArray(
      fc.tuple(fc.constantFrom(...(names.length ? names : ['anything', 'ml_language'])), hostile),
      { minLength: 1, maxLength: 3, selector: ([name]) => name },
    ),
    inQuery: fc.boolean(),
    wholeBody: fc.option(hostile, { freq: 8 }),
    caller: fc.nat({ max: 2 }),
  });
};

async function send(target: FuzzedEndpoint, sample: FuzzSample) {
  const pathOverrides: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = validBase(target);
  const hasBody = !['GET', 'DELETE'].includes(target.method);
  for (const [name, value] of sample.hostileArgs) {
    const where = target.endpoint.args[name]?.meta.in;
    if (where === 'path') pathOverrides[name] = typeof value === 'string' ? value : JSON.stringify(value);
    else if (sample.inQuery || !hasBody) query[name] = value;
    else body[name] = value;
  }
  const search = qs.stringify(hasBody ? query : { ...body, ...query }, { allowDots: false });
  const payload = sample.wholeBody !== null ? sample.wholeBody : body;
  const path = `${pathOf(target, pathOverrides)}${search ? `?${search}` : ''}`;
  const response = await rawRequest(port, {
    method: target.method,
    path,
    headers: {
      ...callers[sample.caller],
      ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
    },
    body: hasBody ? JSON.stringify(payload) : undefined,
  });
  return { path, payload, response };
}

/** Requests per endpoint and method: some 3,000 in all. */
const RUNS_PER_ENDPOINT = 60;

describe('hostile arguments on every route', () => {
  it('never get a 5xx', async () => {
    const targets = fuzzedEndpoints();
    expect(targets.length).toBeGreaterThan(40);
    // Every 5xx of the whole run, each with the request and what the server logged: all are reported at once.
    const failures: string[] = [];
    /** Answers by class (2xx, 4xx…): the fuzz must reach the handlers, not only the validation. */
    const classes = new Map<number, number>();
    for (const target of targets) {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(target), async (sample) => {
          const before = logged.length;
          const { path, payload, response } = await send(target, sample);
          const kind = Math.floor(response.status / 100);
          classes.set(kind, (classes.get(kind) ?? 0) + 1);
          // A 502 remote_… (source_…) is the saved remote's (import address') own failure, said as such: it is
          // unreachable on purpose.
          const remoteFailure =
            response.status === 502 && /^(remote|source)_/.test(response.json?.code ?? '');
          if (response.status >= 500 && !remoteFailure) {
            const sent = JSON.stringify(payload)?.slice(0, 300);
            const log = logged.slice(before).join('\n').split('\n').slice(0, 4).join('\n');
            failures.push(`${response.status} ${target.method} ${path.slice(0, 300)} ${sent}\n${log}`);
          }
        }),
        { numRuns: RUNS_PER_ENDPOINT },
      );
    }
    expect(failures).toEqual([]);
    expect(classes.get(2) ?? 0, 'requests that got through').toBeGreaterThan(200);
    expect(classes.get(4) ?? 0, 'requests refused').toBeGreaterThan(200);
  }, 900_000);
});
