import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type ApiResult, type TestServer } from '../helpers/server';

let server: TestServer;
let editor: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer();
  editor = await server.userHeaders('eddie', 'editor');
});
afterAll(() => server.close());

const paramsOf = (result: ApiResult) => {
  expect(result.status).toBe(400);
  expect(result.body.code).toBe('rest_invalid_param');
  return result.body.data.params;
};

describe('argument error messages (REFERENCE §1.1: validators run before the type check)', () => {
  it('says "Invalid parameter." for arguments with a validator, whatever the type problem', async () => {
    const create = (json: Record<string, unknown>) =>
      server.api('events', { method: 'POST', auth: server.admin, json: eventBody('x', 3, json) });
    expect(paramsOf(await create({ author: 'foo' }))).toEqual({ author: 'Invalid parameter.' });
    expect(paramsOf(await create({ title: 123 }))).toEqual({ title: 'Invalid parameter.' });
    expect(paramsOf(await server.api('events?post_parent=foo'))).toEqual({
      post_parent: 'Invalid parameter.',
    });
    expect(paramsOf(await server.api('venues?event='))).toEqual({ event: 'Invalid parameter.' });
    expect(paramsOf(await server.api('categories?parent=foo'))).toEqual({ parent: 'Invalid parameter.' });
  });

  it('names the type for arguments that only have one, and refuses "" as a boolean', async () => {
    expect(paramsOf(await server.api('events?featured=maybe'))).toEqual({
      featured: 'featured is not of type boolean.',
    });
    expect(paramsOf(await server.api('events?featured='))).toEqual({
      featured: 'featured is not of type boolean.',
    });
    expect(paramsOf(await server.api('categories?hide_empty='))).toEqual({
      hide_empty: 'hide_empty is not of type boolean.',
    });
    for (const word of ['true', 'TRUE', '1', 'false', 'False', '0']) {
      expect((await server.api(`events?featured=${word}`)).status).toBe(200);
    }
  });
});

describe('status=any', () => {
  it('is what editors get by default, echoed in rest_url and usable in the next link', async () => {
    for (const name of ['V1', 'V2', 'V3']) {
      await server.api('venues', {
        method: 'POST',
        auth: server.admin,
        json: { venue: name, status: 'draft' },
      });
    }
    const first = await server.api('venues?per_page=2', { auth: editor });
    expect(new URL(first.body.rest_url).searchParams.get('status')).toBe('any');
    const next = await server.api(first.body.next_rest_url, { auth: editor });
    expect(next.status).toBe(200);
    expect(next.body.venues).toHaveLength(1);
    // Anonymous callers may not ask for it.
    expect(paramsOf(await server.api('venues?status=any'))).toEqual({ status: 'Invalid parameter.' });
  });
});
