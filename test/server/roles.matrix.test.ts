import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';
import type { Role } from '../../src/shared/enums';
import { expectError } from './safety.http';

/**
 * REFERENCE §8 / CONTRACT §5: who may do what. Each table row is one operation, each column one caller;
 * a number is the HTTP status expected, `-` means the case does not exist for that caller.
 */
type Actor = 'anonymous' | Role;
const ACTORS: Actor[] = ['anonymous', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];
type Row = [number | '-', number | '-', number | '-', number | '-', number | '-', number | '-'];

//                                     anon   sub   contrib author editor admin
const POST_MATRIX: Record<string, Row> = {
  create: /*                        */ [401, 403, 201, 201, 201, 201],
  'edit own draft': /*              */ ['-', 403, 200, 200, 200, 200],
  'edit own published': /*          */ ['-', 403, 403, 200, 200, 200],
  "edit others' draft": /*          */ [401, 403, 403, 403, 200, 200],
  "edit others' published": /*      */ [401, 403, 403, 403, 200, 200],
  'delete own draft': /*            */ ['-', 403, 200, 200, 200, 200],
  'delete own published': /*        */ ['-', 403, 403, 200, 200, 200],
  "delete others' draft": /*        */ [401, 403, 403, 403, 200, 200],
  "delete others' published": /*    */ [401, 403, 403, 403, 200, 200],
};

//                                     anon   sub   contrib author editor admin
const TERM_MATRIX: Record<string, Row> = {
  'create category': /*             */ [401, 403, 403, 201, 201, 201],
  'update category': /*             */ [401, 403, 403, 200, 200, 200],
  'delete category': /*             */ [401, 403, 403, 200, 200, 200],
  'create tag': /*                  */ [401, 403, 403, 403, 201, 201],
  'update tag': /*                  */ [401, 403, 403, 403, 200, 200],
  'delete tag': /*                  */ [401, 403, 403, 403, 200, 200],
};

type Kind = 'events' | 'venues' | 'organizers';
const KINDS: Record<Kind, { body: (name: string) => Record<string, unknown>; edit: [string, string] }> = {
  events: { body: (name) => eventBody(name, 6), edit: ['title', 'Edited title'] },
  venues: { body: (name) => ({ venue: name }), edit: ['city', 'Edited City'] },
  organizers: { body: (name) => ({ organizer: name }), edit: ['phone', '555-0199'] },
};

let server: TestServer;
const auth: Partial<Record<Actor, Record<string, string>>> = {};
const userIds: Partial<Record<Actor | 'other', number>> = {};
let counter = 0;
const unique = (prefix: string) => `${prefix} ${++counter}`;

beforeAll(async () => {
  server = await startTestServer();
  auth.anonymous = {};
  auth.administrator = server.admin;
  userIds.administrator = server.engine.store.users.getByKey('admin')!.id;
  for (const role of ['subscriber', 'contributor', 'author', 'editor'] as const) {
    auth[role] = await server.userHeaders(`the-${role}`, role);
    userIds[role] = server.engine.store.users.getByKey(`the-${role}`)!.id;
  }
  // Owner of the "others'" records: an editor nobody else is.
  await server.userHeaders('someone-else', 'editor');
  userIds.other = server.engine.store.users.getByKey('someone-else')!.id;
});
afterAll(() => server.close());

/** A record of `kind` owned by `owner` with `status`, made by the admin (who may set any author). */
async function fixture(kind: Kind, owner: Actor | 'other', status: 'draft' | 'publish') {
  const created = await server.api(kind, {
    method: 'POST',
    auth: server.admin,
    json: { ...KINDS[kind].body(unique(`${kind} of ${owner}`)), author: userIds[owner], status },
  });
  expect(created.status).toBe(201);
  expect(created.body.author).toBe(String(userIds[owner]));
  expect(created.body.status).toBe(status);
  return created.body as { id: number } & Record<string, unknown>;
}

const readAsAdmin = (kind: string, id: number) => server.api(`${kind}/${id}`, { auth: server.admin });

function cases(matrix: Record<string, Row>) {
  return Object.entries(matrix).flatMap(([operation, row]) =>
    ACTORS.flatMap((actor, index) =>
      row[index] === '-' ? [] : [{ operation, actor, expected: row[index] as number }],
    ),
  );
}

describe.each(Object.keys(KINDS) as Kind[])('%s', (kind) => {
  it.each(cases(POST_MATRIX))('$actor: $operation → $expected', async ({ operation, actor, expected }) => {
    const headers = auth[actor]!;
    const [field, value] = KINDS[kind].edit;

    if (operation === 'create') {
      const name = unique(`${kind} by ${actor}`);
      const response = await server.api(kind, {
        method: 'POST',
        auth: headers,
        json: KINDS[kind].body(name),
      });
      if (expected === 201) {
        expect(response.status).toBe(201);
        expect(response.body.author).toBe(String(userIds[actor]));
        // Who cannot publish gets a draft (REFERENCE §5.1 scale-back).
        expect(response.body.status).toBe(actor === 'contributor' ? 'draft' : 'publish');
      } else {
        expectError(response, expected, 'rest_forbidden');
        expect(response.body.message).toBe('Sorry, you are not allowed to do that.');
        const list = await server.api(`${kind}?per_page=50&status=any`, { auth: server.admin });
        expect(JSON.stringify(list.body)).not.toContain(name);
      }
      return;
    }

    const [verb, ...rest] = operation.split(' ');
    const owner: Actor | 'other' = rest[0] === 'own' ? actor : 'other';
    const status = rest[rest.length - 1] === 'draft' ? 'draft' : 'publish';
    const target = await fixture(kind, owner, status);

    if (verb === 'edit') {
      const response = await server.api(`${kind}/${target.id}`, {
        method: 'POST',
        auth: headers,
        json: { [field]: value },
      });
      const after = await readAsAdmin(kind, target.id);
      if (expected === 200) {
        expect(response.status).toBe(200);
        expect(response.body[field]).toBe(value);
        expect(after.body[field]).toBe(value);
        // Editing does not hand the record over to the editor.
        expect(after.body.author).toBe(String(userIds[owner]));
      } else {
        expectError(response, expected, 'rest_forbidden');
        expect(after.body[field] ?? '').not.toBe(value);
      }
    } else {
      const response = await server.api(`${kind}/${target.id}`, { method: 'DELETE', auth: headers });
      const after = await readAsAdmin(kind, target.id);
      if (expected === 200) {
        expect(response.status).toBe(200);
        expect(response.body.status).toBe('trash');
      } else {
        expectError(response, expected, 'rest_forbidden');
        expect(after.status).toBe(200);
        expect(after.body.status).toBe(status);
      }
    }
  });
});

describe('categories and tags', () => {
  it.each(cases(TERM_MATRIX))('$actor: $operation → $expected', async ({ operation, actor, expected }) => {
    const headers = auth[actor]!;
    const [verb, taxonomy] = operation.split(' ');
    const plural = taxonomy === 'category' ? 'categories' : 'tags';
    const names = async () => {
      const list = await server.api(`${plural}?hide_empty=false&per_page=50`);
      return (list.body[plural] as Array<{ name: string }>).map((term) => term.name);
    };

    if (verb === 'create') {
      const name = unique(`${taxonomy} by ${actor}`);
      const response = await server.api(plural, { method: 'POST', auth: headers, json: { name } });
      if (expected === 201) expect(response.status).toBe(201);
      else {
        expectError(response, expected, 'rest_forbidden');
        expect(await names()).not.toContain(name);
      }
      return;
    }

    const original = unique(`${taxonomy} to ${verb}`);
    const created = await server.api(plural, {
      method: 'POST',
      auth: server.admin,
      json: { name: original },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    if (verb === 'update') {
      const response = await server.api(`${plural}/${id}`, {
        method: 'POST',
        auth: headers,
        json: { name: `${original} renamed` },
      });
      const after = await server.api(`${plural}/${id}`);
      if (expected === 200) {
        expect(response.status).toBe(200);
        expect(after.body.name).toBe(`${original} renamed`);
      } else {
        expectError(response, expected, 'rest_forbidden');
        expect(after.body.name).toBe(original);
      }
    } else {
      const response = await server.api(`${plural}/${id}`, { method: 'DELETE', auth: headers });
      const after = await server.api(`${plural}/${id}`);
      if (expected === 200) {
        expect(response.status).toBe(200);
        expect(response.body.name).toBe(original);
        expect(after.status).toBe(400);
      } else {
        expectError(response, expected, 'rest_forbidden');
        expect(after.status).toBe(200);
      }
    }
  });
});

describe('anonymous reads', () => {
  it.each(['events', 'venues', 'organizers', 'categories', 'tags', 'doc', ''])(
    'GET /%s is public',
    async (path) => {
      const response = await server.api(path);
      expect(response.status).toBe(200);
    },
  );

  it.each(['events', 'venues', 'organizers'] as Kind[])(
    'GET a published %s record is public',
    async (kind) => {
      const target = await fixture(kind, 'other', 'publish');
      const response = await server.api(`${kind}/${target.id}`);
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(target.id);
    },
  );
});

describe('validation comes before authorization (REFERENCE §1.1)', () => {
  const cases: Array<[string, Actor, string, string, unknown, number, string]> = [
    [
      'anonymous DELETE of a missing venue',
      'anonymous',
      'DELETE',
      'venues/999999',
      undefined,
      400,
      'rest_invalid_param',
    ],
    [
      'anonymous DELETE of a missing organizer',
      'anonymous',
      'DELETE',
      'organizers/999999',
      undefined,
      400,
      'rest_invalid_param',
    ],
    [
      'anonymous update of a missing venue',
      'anonymous',
      'POST',
      'venues/999999',
      { city: 'x' },
      400,
      'rest_invalid_param',
    ],
    [
      'subscriber DELETE of a missing category',
      'subscriber',
      'DELETE',
      'categories/999999',
      undefined,
      400,
      'rest_invalid_param',
    ],
    [
      'subscriber DELETE of a missing tag',
      'subscriber',
      'DELETE',
      'tags/999999',
      undefined,
      400,
      'rest_invalid_param',
    ],
    [
      'anonymous create without required fields',
      'anonymous',
      'POST',
      'events',
      {},
      400,
      'rest_missing_callback_param',
    ],
    [
      'subscriber create without a venue name',
      'subscriber',
      'POST',
      'venues',
      {},
      400,
      'rest_missing_callback_param',
    ],
    [
      'subscriber create with an empty term name',
      'subscriber',
      'POST',
      'categories',
      { name: '' },
      400,
      'rest_invalid_param',
    ],
    [
      'anonymous create with a bad date',
      'anonymous',
      'POST',
      'events',
      { ...eventBody('x', 1), start_date: 'before my birthday' },
      400,
      'rest_invalid_param',
    ],
    // Event ids are not validated for existence: the permission check answers first (sample 37).
    [
      'anonymous DELETE of a missing event',
      'anonymous',
      'DELETE',
      'events/999999',
      undefined,
      401,
      'rest_forbidden',
    ],
    [
      'subscriber DELETE of a missing event',
      'subscriber',
      'DELETE',
      'events/999999',
      undefined,
      403,
      'rest_forbidden',
    ],
    [
      'contributor DELETE of a missing event',
      'contributor',
      'DELETE',
      'events/999999',
      undefined,
      404,
      'rest-event-not-found',
    ],
    [
      'anonymous update of a non-numeric id',
      'anonymous',
      'POST',
      'events/abc',
      { title: 'x' },
      404,
      'rest_no_route',
    ],
  ];
  it.each(cases)('%s → %i', async (_label, actor, method, path, json, status, code) => {
    const response = await server.api(path, { method, auth: auth[actor], json });
    expectError(response, status, code);
  });
});

describe('status scale-back on create (REFERENCE §5.1)', () => {
  it.each([
    ['contributor', 'events', 'publish', 'pending'],
    ['contributor', 'events', 'future', 'pending'],
    ['contributor', 'events', 'draft', 'draft'],
    ['contributor', 'venues', 'publish', 'pending'],
    ['contributor', 'organizers', undefined, 'draft'],
    ['author', 'events', undefined, 'publish'],
    ['author', 'events', 'draft', 'draft'],
    ['author', 'venues', 'publish', 'publish'],
    ['editor', 'organizers', 'pending', 'pending'],
  ] as Array<[Actor, Kind, string | undefined, string]>)(
    '%s creating %s with status %s gets %s',
    async (actor, kind, requested, stored) => {
      const body = {
        ...KINDS[kind].body(unique(`scaled ${kind}`)),
        ...(requested ? { status: requested } : {}),
      };
      const response = await server.api(kind, { method: 'POST', auth: auth[actor], json: body });
      expect(response.status).toBe(201);
      expect(response.body.status).toBe(stored);
    },
  );

  it.each(['events', 'venues', 'organizers'] as Kind[])(
    'keeps a contributor from publishing their own draft %s by editing it',
    async (kind) => {
      const draft = await fixture(kind, 'contributor', 'draft');
      const response = await server.api(`${kind}/${draft.id}`, {
        method: 'POST',
        auth: auth.contributor,
        json: { status: 'publish' },
      });
      if (response.status === 200) expect(response.body.status).toBe('pending');
      else expectError(response, 403);
      const after = await readAsAdmin(kind, draft.id);
      expect(after.body.status).not.toBe('publish');
    },
  );
});
