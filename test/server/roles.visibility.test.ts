import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';
import type { Role } from '../../src/shared/enums';
import { expectError } from './safety.http';

/** REFERENCE §4.6 (status filter per role) and §6/§8.3 (reading records that are not public). */
type Actor = 'anonymous' | Role;
let server: TestServer;
const auth: Partial<Record<Actor, Record<string, string>>> = {};
const ids: Record<string, number> = {};

async function create(kind: string, body: Record<string, unknown>, as: Record<string, string>) {
  const response = await server.api(kind, { method: 'POST', auth: as, json: body });
  expect(response.status).toBe(201);
  return response.body.id as number;
}

beforeAll(async () => {
  server = await startTestServer();
  auth.anonymous = {};
  auth.administrator = server.admin;
  for (const role of ['subscriber', 'contributor', 'author', 'editor'] as const) {
    auth[role] = await server.userHeaders(`v-${role}`, role);
  }
  const other = await server.userHeaders('v-other', 'editor');
  ids.published = await create('events', eventBody('Published event', 5), server.admin);
  ids.contributorDraft = await create('events', eventBody('Contributor draft', 5), auth.contributor!);
  ids.otherDraft = await create('events', eventBody('Other draft', 5, { status: 'draft' }), other);
  ids.otherPending = await create('events', eventBody('Other pending', 5, { status: 'pending' }), other);
  ids.privateEvent = await create('events', eventBody('Private event', 5, { status: 'private' }), other);
  ids.publishedVenue = await create('venues', { venue: 'Open venue' }, server.admin);
  ids.draftVenue = await create('venues', { venue: 'Draft venue', status: 'draft' }, other);
  ids.draftOrganizer = await create('organizers', { organizer: 'Draft organizer', status: 'draft' }, other);
});
afterAll(() => server.close());

const listed = async (path: string, actor: Actor, key: string) => {
  const response = await server.api(path, { auth: auth[actor] });
  expect(response.status).toBe(200);
  return (response.body[key] as Array<{ id: number }>).map((record) => record.id);
};

describe('status filter on archives', () => {
  it.each(['anonymous', 'subscriber'] as Actor[])('%s sees only published events', async (actor) => {
    const seen = await listed('events?per_page=50', actor, 'events');
    expect(seen).toContain(ids.published);
    for (const hidden of ['contributorDraft', 'otherDraft', 'otherPending', 'privateEvent']) {
      expect(seen).not.toContain(ids[hidden]);
    }
    expect(await listed('events?per_page=50&status=publish', actor, 'events')).toContain(ids.published);
  });

  it.each([
    ['anonymous', 'events', 'draft'],
    ['anonymous', 'events', 'publish, draft'],
    ['anonymous', 'events', 'trash'],
    ['subscriber', 'events', 'draft'],
    ['subscriber', 'events', 'private'],
    ['anonymous', 'venues', 'draft'],
    ['subscriber', 'organizers', 'pending'],
  ] as Array<[Actor, string, string]>)('%s asking %s for status=%s gets 400', async (actor, kind, status) => {
    const response = await server.api(`${kind}?status=${encodeURIComponent(status)}`, { auth: auth[actor] });
    expectError(response, 400, 'rest_invalid_param');
    expect(Object.keys(response.body.data.params)).toContain('status');
  });

  it.each(['contributor', 'author', 'editor', 'administrator'] as Actor[])(
    "%s sees every non-trashed status by default, others' drafts included",
    async (actor) => {
      const seen = await listed('events?per_page=50', actor, 'events');
      for (const visible of ['published', 'contributorDraft', 'otherDraft', 'otherPending', 'privateEvent']) {
        expect(seen).toContain(ids[visible]);
      }
    },
  );

  it.each(['contributor', 'editor'] as Actor[])('%s may restrict to exact statuses', async (actor) => {
    const drafts = await listed('events?per_page=50&status=draft', actor, 'events');
    expect(drafts).toEqual(expect.arrayContaining([ids.contributorDraft, ids.otherDraft]));
    expect(drafts).not.toContain(ids.published);
    expect(drafts).not.toContain(ids.otherPending);
    const two = await listed('events?per_page=50&status=draft,pending', actor, 'events');
    expect(two).toEqual(expect.arrayContaining([ids.otherDraft, ids.otherPending]));
    expect(two).not.toContain(ids.published);
  });

  it.each([['foo'], ['foo, bar'], ['foo, bar, publish']])(
    'an unknown status (%s) is 400 even for editors',
    async (status) => {
      const response = await server.api(`events?status=${encodeURIComponent(status)}`, { auth: auth.editor });
      expectError(response, 400, 'rest_invalid_param');
    },
  );

  it('lets users who can edit list draft venues and organizers, not anonymous callers', async () => {
    expect(await listed('venues?per_page=50', 'contributor', 'venues')).toContain(ids.draftVenue);
    expect(await listed('venues?per_page=50', 'anonymous', 'venues')).not.toContain(ids.draftVenue);
    expect(await listed('venues?per_page=50', 'anonymous', 'venues')).toContain(ids.publishedVenue);
    expect(await listed('organizers?per_page=50', 'editor', 'organizers')).toContain(ids.draftOrganizer);
    expect(await listed('organizers?per_page=50', 'subscriber', 'organizers')).not.toContain(
      ids.draftOrganizer,
    );
  });
});

describe('reading a single record that is not public', () => {
  //                              record              anon sub  contrib author editor admin
  const table: Array<[string, string, number[]]> = [
    ['events', 'contributorDraft', [403, 403, 200, 403, 200, 200]],
    ['events', 'otherDraft', /*   */ [403, 403, 403, 403, 200, 200]],
    ['events', 'otherPending', /* */ [403, 403, 403, 403, 200, 200]],
    ['events', 'privateEvent', /* */ [403, 403, 403, 403, 200, 200]],
    ['events', 'published', /*    */ [200, 200, 200, 200, 200, 200]],
    ['venues', 'draftVenue', /*   */ [403, 403, 403, 403, 200, 200]],
    ['organizers', 'draftOrganizer', [403, 403, 403, 403, 200, 200]],
  ];
  const actors: Actor[] = ['anonymous', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];
  const cases = table.flatMap(([kind, record, row]) =>
    actors.map((actor, index) => ({ kind, record, actor, expected: row[index] })),
  );
  const codes: Record<string, string> = {
    events: 'event-not-accessible',
    venues: 'venue-not-accessible',
    organizers: 'organizer-not-accessible',
  };
  it.each(cases)('$actor reading $kind $record → $expected', async ({ kind, record, actor, expected }) => {
    const response = await server.api(`${kind}/${ids[record]}`, { auth: auth[actor] });
    if (expected === 200) {
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(ids[record]);
    } else expectError(response, expected, codes[kind]);
  });
});
