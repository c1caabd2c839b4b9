import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type ApiResult, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const create = (path: string, json: unknown) =>
    server.api(path, { method: 'POST', auth: server.admin, json });
  for (let day = 1; day <= 3; day++)
    await create('events', eventBody(`Tagged ${day}`, day, { tags: ['blue'] }));
  await create('events', eventBody('Untagged', 1));
  for (const name of ['Hall A', 'Hall B', 'Other place']) await create('venues', { venue: name });
  for (const name of ['c1', 'c2', 'c3']) await create('categories', { name });
});
afterAll(() => server.close());

/** Follows `rel="next"` from a first page and returns every page's item names. */
async function followNext(
  path: string,
  pick: (body: Record<string, unknown[]>) => string[],
): Promise<string[][]> {
  const pages: string[][] = [];
  let url: string | undefined = `${server.base}${path}`;
  while (url && pages.length < 10) {
    const result: ApiResult = await server.api(url);
    expect(result.status).toBe(200);
    pages.push(pick(result.body));
    url = /<([^>]+)>; rel="next"/.exec(result.headers.get('Link') ?? '')?.[1];
  }
  return pages;
}

describe('the Link header of lists', () => {
  it('keeps the filters of the request, so following rel="next" walks the same filtered list', async () => {
    const events = await followNext('events?tags=blue&per_page=1', (body) =>
      (body.events as Array<{ title: string }>).map((event) => event.title),
    );
    expect(events).toEqual([['Tagged 1'], ['Tagged 2'], ['Tagged 3']]);

    const venues = await followNext('venues?search=hall&per_page=1', (body) =>
      (body.venues as Array<{ venue: string }>).map((venue) => venue.venue),
    );
    expect(venues.flat().sort()).toEqual(['Hall A', 'Hall B']);

    const terms = await followNext('categories?hide_empty=false&per_page=2', (body) =>
      (body.categories as Array<{ name: string }>).map((term) => term.name),
    );
    expect(terms).toEqual([['c1', 'c2'], ['c3']]);
  });
});
