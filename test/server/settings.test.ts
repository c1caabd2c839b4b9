import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';

/** `/wp-json/calendar-desk/v1/settings`: what the desktop UI reads on start and changes on its Settings screen. */
let server: TestServer;
let settings: (init?: Parameters<TestServer['api']>[1]) => ReturnType<TestServer['api']>;
let editorAuth: { Authorization: string };

beforeAll(async () => {
  server = await startTestServer();
  settings = (init) => server.api(`${server.engine.apiRoot}calendar-desk/v1/settings`, init);
  const created = await server.api(`${server.engine.apiRoot}calendar-desk/v1/users`, {
    method: 'POST',
    auth: server.admin,
    json: { login: 'eddie', role: 'editor' },
  });
  editorAuth = { Authorization: `Basic ${Buffer.from(`eddie:${created.body.password}`).toString('base64')}` };
});
afterAll(() => server.close());

describe('/calendar-desk/v1/settings', () => {
  it('tells any signed-in user the site time zone and their own role; nobody else', async () => {
    const asEditor = await settings({ auth: editorAuth });
    expect(asEditor.status).toBe(200);
    expect(asEditor.body).toMatchObject({ timezone: 'UTC', user: { login: 'eddie', role: 'editor' } });
    expect((await settings()).status).toBe(401);
  });

  it('lets an administrator change the site time zone, which new events then use', async () => {
    const changed = await settings({ method: 'PUT', auth: server.admin, json: { timezone: 'Europe/Rome' } });
    expect(changed.status).toBe(200);
    expect(changed.body.timezone).toBe('Europe/Rome');
    const site = await server.api(server.engine.apiRoot);
    expect(site.body.timezone_string).toBe('Europe/Rome');
    const event = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Rome', 3),
    });
    expect(event.body.timezone).toBe('Europe/Rome');
  });

  it('refuses an unknown time zone with a field message, and editors with 403, changing nothing', async () => {
    const bad = await settings({ method: 'PUT', auth: server.admin, json: { timezone: 'Mars/Olympus' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(bad.body.data.params.timezone).toMatch(/not a time zone/);
    const forbidden = await settings({ method: 'PUT', auth: editorAuth, json: { timezone: 'UTC' } });
    expect(forbidden.status).toBe(403);
    expect((await settings({ auth: server.admin })).body.timezone).toBe('Europe/Rome');
  });

  it("shows the original's currency defaults until an administrator chooses the site's", async () => {
    const fresh = await settings({ auth: editorAuth });
    expect(fresh.body).toMatchObject({
      currency_symbol: '$',
      currency_position: 'prefix',
      currency_code: 'USD',
    });
    const changed = await settings({
      method: 'PUT',
      auth: server.admin,
      json: { currency_symbol: ' zł ', currency_position: 'postfix', currency_code: 'pln' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      currency_symbol: 'zł',
      currency_position: 'postfix',
      currency_code: 'PLN',
    });
    // Only what is sent changes.
    const symbolOnly = await settings({
      method: 'PUT',
      auth: server.admin,
      json: { currency_symbol: 'PLN' },
    });
    expect(symbolOnly.body).toMatchObject({ currency_symbol: 'PLN', currency_position: 'postfix' });
    expect((await settings({ auth: editorAuth })).body.currency_code).toBe('PLN');
  });

  it.each([
    [{ currency_position: 'left' }, 'currency_position', /not one of prefix, postfix/],
    [{ currency_position: '' }, 'currency_position', /not one of prefix, postfix/],
    [{ currency_code: 'euro' }, 'currency_code', /three-letter currency code/],
    [{ currency_symbol: '9' }, 'currency_symbol', /must not contain digits/],
  ])('refuses the currency %j with a field message, changing nothing', async (json, field, message) => {
    const before = (await settings({ auth: server.admin })).body;
    const bad = await settings({ method: 'PUT', auth: server.admin, json });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(bad.body.data.params[field]).toMatch(message);
    expect((await settings({ auth: server.admin })).body).toEqual(before);
  });

  it('lets only administrators change the currency', async () => {
    const forbidden = await settings({ method: 'PUT', auth: editorAuth, json: { currency_symbol: '€' } });
    expect(forbidden.status).toBe(403);
    expect((await settings({ auth: editorAuth })).body.currency_symbol).not.toBe('€');
  });
});

describe('category colours in /calendar-desk/v1/settings', () => {
  it('are picked by whoever manages categories, kept, and shown to every signed-in user', async () => {
    expect((await settings({ auth: editorAuth })).body.category_colors).toEqual({});
    const picked = await settings({
      method: 'PUT',
      auth: editorAuth,
      json: { category_colors: { '7': '#aa3300', '12': '#2f6fdf' } },
    });
    expect(picked.status).toBe(200);
    expect(picked.body.category_colors).toEqual({ '7': '#aa3300', '12': '#2f6fdf' });
    // The whole map is replaced: a colour left out goes back to the default.
    await settings({ method: 'PUT', auth: server.admin, json: { category_colors: { '12': '#2f6fdf' } } });
    expect((await settings({ auth: editorAuth })).body.category_colors).toEqual({ '12': '#2f6fdf' });
    // Other settings are untouched by a colour change.
    expect((await settings({ auth: editorAuth })).body.timezone).toBe('Europe/Rome');
  });

  it('refuses what is not a map of category ids to #rrggbb colours, and subscribers, changing nothing', async () => {
    for (const category_colors of [{ '12': 'red' }, { abc: '#000000' }, ['#000000'], '#000000']) {
      const bad = await settings({ method: 'PUT', auth: server.admin, json: { category_colors } });
      expect(bad.status, JSON.stringify(category_colors)).toBe(400);
      expect(bad.body.code).toBe('rest_invalid_param');
      expect(bad.body.data.params.category_colors).toMatch(
        /category_colors must map category ids to colours/,
      );
    }
    const created = await server.api(`${server.engine.apiRoot}calendar-desk/v1/users`, {
      method: 'POST',
      auth: server.admin,
      json: { login: 'sue', role: 'subscriber' },
    });
    const subscriber = {
      Authorization: `Basic ${Buffer.from(`sue:${created.body.password}`).toString('base64')}`,
    };
    const refused = await settings({
      method: 'PUT',
      auth: subscriber,
      json: { category_colors: { '12': '#000000' } },
    });
    expect(refused.status).toBe(403);
    // An editor may pick colours but not change the site's time zone in the same breath.
    const mixed = await settings({
      method: 'PUT',
      auth: editorAuth,
      json: { category_colors: {}, timezone: 'UTC' },
    });
    expect(mixed.status).toBe(403);
    expect((await settings({ auth: server.admin })).body).toMatchObject({
      timezone: 'Europe/Rome',
      category_colors: { '12': '#2f6fdf' },
    });
  });
});
