import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type ApiResult, type TestServer } from '../helpers/server';
import { VENUE_WITH_ADDRESS_KEYS, expectRecord, postAs } from '../helpers/fixtures';
import { venueResponseSchema, eventResponseSchema } from '../../src/shared/schemas/records';

/**
 * Venue writes and single reads (REFERENCE §2.3, §3.5, §5.7, §5.9, §6.2-6.4, §7.1, §8; CONTRACT §2, §3, §6).
 */
let server: TestServer;
let contributor: Record<string, string>;
let contributor2: Record<string, string>;
let author: Record<string, string>;
let editor: Record<string, string>;
let subscriber: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  contributor = await server.userHeaders('carla', 'contributor');
  contributor2 = await server.userHeaders('carlo', 'contributor');
  author = await server.userHeaders('arturo', 'author');
  editor = await server.userHeaders('edna', 'editor');
  subscriber = await server.userHeaders('sue', 'subscriber');
});
afterAll(() => server.close());

/** Every venue the server returns must parse with the strict record schema. */
const venue = (result: ApiResult, status = 200) => expectRecord(venueResponseSchema, result, status);

const ANONYMOUS = {};

const post = (path: string, json: unknown, auth?: Record<string, string>) => postAs(server, path, json, auth);

async function createVenue(json: Record<string, unknown>, auth = server.admin) {
  return venue(await post('venues', json, auth), 201);
}

function siteUrl() {
  return server.engine.origin;
}

describe('POST /venues (create)', () => {
  it('answers 201 with the record shape and key order of the reference (empty fields omitted)', async () => {
    const result = await post('venues', {
      venue: 'Sample Venue',
      address: '1 Sample Road',
      city: 'Lisbon',
      country: 'Portugal',
    });
    const body = venue(result, 201);
    expect(Object.keys(body)).toEqual(VENUE_WITH_ADDRESS_KEYS);
    expect(body).toMatchObject({
      author: '1',
      status: 'publish',
      url: `${siteUrl()}/venue/sample-venue/`,
      venue: 'Sample Venue',
      slug: 'sample-venue',
      address: '1 Sample Road',
      city: 'Lisbon',
      country: 'Portugal',
      show_map: true,
      show_map_link: true,
      global_id: `127.0.0.1?id=${body.id}`,
      global_id_lineage: [`127.0.0.1?id=${body.id}`],
      language: 'en',
    });
    expect(body.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(body).not.toHaveProperty('json_ld');
    expect(result.headers.get('etag')).toBeTruthy();
    expect(result.headers.get('location')).toBe(`${server.base}venues/${body.id}`);
  });

  it('returns every field in the reference order, json_ld only on the single GET', async () => {
    const created = await createVenue({
      venue: 'Full Venue',
      description: '<p>All the fields</p>',
      address: '59 Example Street',
      city: 'Austin',
      country: 'United States',
      province: 'Nowhere',
      state: 'TX',
      zip: '78701',
      phone: '+1 555 0144',
      website: 'https://full.example.test',
      stateprovince: 'Texas',
      image: 'https://images.example.test/full.png',
      geo_lat: 30.27,
      geo_lng: -97.74,
    });
    const order = [
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'venue',
      'description',
      'slug',
      'image',
      'address',
      'city',
      'country',
      'province',
      'state',
      'zip',
      'phone',
      'website',
      'stateprovince',
      'geo_lat',
      'geo_lng',
    ];
    const tail = ['show_map', 'show_map_link', 'global_id', 'global_id_lineage', 'language', 'uid'];
    expect(Object.keys(created)).toEqual([...order, ...tail]);
    expect(created).toMatchObject({
      description: '<p>All the fields</p>',
      stateprovince: 'Texas',
      geo_lat: 30.27,
      geo_lng: -97.74,
      image: { url: 'https://images.example.test/full.png', extension: 'png' },
    });
    const single = venue(await server.api(`venues/${created.id}`));
    expect(Object.keys(single)).toEqual([...order, 'json_ld', ...tail]);
    expect(single.json_ld).toMatchObject({
      '@type': 'Place',
      name: 'Full Venue',
      address: { '@type': 'PostalAddress', streetAddress: '59 Example Street', addressLocality: 'Austin' },
      telephone: '+1 555 0144',
      sameAs: 'https://full.example.test',
    });
    expect(single.json_ld.geo).toMatchObject({ latitude: 30.27, longitude: -97.74 });
    expect(single.language).toBe('en');
  });

  it('requires a name: missing is rest_missing_callback_param, empty is rest_invalid_param', async () => {
    const missing = await post('venues', { city: 'Nowhere' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): venue',
      data: { status: 400, params: ['venue'] },
    });
    const empty = await post('venues', { venue: '' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): venue',
      data: { status: 400, params: { venue: expect.any(String) } },
    });
  });

  it('checks arguments before credentials: anonymous 401 only for valid input, subscriber 403', async () => {
    expect((await post('venues', { venue: '' }, ANONYMOUS)).status).toBe(400);
    const anonymous = await post('venues', { venue: 'Anonymous Venue' }, ANONYMOUS);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
    const denied = await post('venues', { venue: 'Subscriber Venue' }, subscriber);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('rest_forbidden');
  });

  it('validates author, date, status and website', async () => {
    for (const [field, value] of [
      ['author', 2389],
      ['author', 'foo'],
      ['date', 'foo'],
      ['date_utc', 'not a date'],
      ['status', 'kinda_thinking_about_it'],
      ['website', 'foo'],
      ['website', 'not a url at all'],
    ] as const) {
      const result = await post('venues', { venue: 'Validated Venue', [field]: value });
      expect(result.status, `${field}=${value}`).toBe(400);
      expect(result.body.code).toBe('rest_invalid_param');
      expect(Object.keys(result.body.data.params)).toEqual([field]);
    }
    const ok = await createVenue({ venue: 'Website Venue', website: 'https://example.test/page' });
    expect(ok.website).toBe('https://example.test/page');
  });

  it('sets the publication date from date (site time zone) or date_utc', async () => {
    const dated = await createVenue({ venue: 'Dated Venue', date: '2019-04-05 06:07:08' });
    expect(dated.date).toBe('2019-04-05 06:07:08');
    expect(dated.date_utc).toBe('2019-04-05 06:07:08');
    const utc = await createVenue({ venue: 'UTC Dated Venue', date_utc: '2018-01-02 03:04:05' });
    expect(utc.date_utc).toBe('2018-01-02 03:04:05');
  });

  it('re-uses a non-trashed venue with the same name (case-insensitive) and writes the sent meta onto it', async () => {
    const first = await createVenue({ venue: 'A venue', city: 'Turin', zip: '10100' });
    const again = await createVenue({ venue: 'a VENUE', city: 'Milan', phone: '123' });
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({ venue: 'A venue', city: 'Milan', zip: '10100', phone: '123' });
    // The stored venue changed, too.
    const read = venue(await server.api(`venues/${first.id}`));
    expect(read).toMatchObject({ city: 'Milan', phone: '123' });
  });

  it('matches the description too when one is sent', async () => {
    const described = await createVenue({ venue: 'Described Venue', description: 'Hello there' });
    const sameText = await createVenue({ venue: 'described venue', description: 'HELLO THERE' });
    expect(sameText.id).toBe(described.id);
    const withoutDescription = await createVenue({ venue: 'Described Venue' });
    expect(withoutDescription.id).toBe(described.id);
    const other = await createVenue({ venue: 'Described Venue', description: 'Something else' });
    expect(other.id).not.toBe(described.id);
  });

  it('does not match trashed venues', async () => {
    const first = await createVenue({ venue: 'Trashed Twin' });
    expect((await server.api(`venues/${first.id}`, { method: 'DELETE', auth: server.admin })).status).toBe(
      200,
    );
    const second = await createVenue({ venue: 'Trashed Twin' });
    expect(second.id).not.toBe(first.id);
    expect(second.slug).toBe('trashed-twin');
  });

  it('derives stateprovince from state (US or no country) or province', async () => {
    const us = await createVenue({ venue: 'SP US', state: 'CA', country: 'United States', province: 'P' });
    expect(us.stateprovince).toBe('CA');
    const usCode = await createVenue({ venue: 'SP US code', state: 'NY', country: 'US' });
    expect(usCode.stateprovince).toBe('NY');
    const noCountry = await createVenue({ venue: 'SP no country', state: 'WA' });
    expect(noCountry.stateprovince).toBe('WA');
    const canada = await createVenue({
      venue: 'SP Canada',
      state: 'X',
      province: 'Ontario',
      country: 'Canada',
    });
    expect(canada.stateprovince).toBe('Ontario');
    const usNoState = await createVenue({ venue: 'SP US no state', province: 'Fallback', country: 'US' });
    expect(usNoState.stateprovince).toBe('Fallback');
    const explicit = await createVenue({ venue: 'SP explicit', state: 'CA', stateprovince: 'California' });
    expect(explicit.stateprovince).toBe('California');
    const none = await createVenue({ venue: 'SP none', country: 'Italy' });
    expect(none).not.toHaveProperty('stateprovince');
    // A derived value follows the fields it came from on a later update; an explicit one stays.
    const moved = venue(await post(`venues/${us.id}`, { state: 'OR' }));
    expect(moved.stateprovince).toBe('OR');
    const kept = venue(await post(`venues/${explicit.id}`, { state: 'NV' }));
    expect(kept.stateprovince).toBe('California');
  });

  it('reads show_map / show_map_link with truthy rules: falsy words store false, absent means true', async () => {
    for (const word of ['false', '0', 'no', 'off']) {
      const body = await createVenue({ venue: `Map off ${word}`, show_map: word, show_map_link: word });
      expect(body.show_map, word).toBe(false);
      expect(body.show_map_link, word).toBe(false);
    }
    for (const word of ['true', '1', 'yes', 'on']) {
      const body = await createVenue({ venue: `Map on ${word}`, show_map: word, show_map_link: word });
      expect(body.show_map, word).toBe(true);
      expect(body.show_map_link, word).toBe(true);
    }
    const form = await server.api('venues', {
      method: 'POST',
      auth: server.admin,
      body: new URLSearchParams({ venue: 'Form Map Venue', show_map: '0', show_map_link: '1' }),
    });
    expect(venue(form, 201)).toMatchObject({ show_map: false, show_map_link: true });
  });

  it('records an image URL as a media item and re-uses it for the same URL', async () => {
    const first = await createVenue({ venue: 'Image One', image: 'https://images.example.test/a/b.jpg' });
    expect(first.image).toEqual({
      url: 'https://images.example.test/a/b.jpg',
      id: expect.any(Number),
      extension: 'jpg',
    });
    const second = await createVenue({ venue: 'Image Two', image: 'https://images.example.test/a/b.jpg' });
    expect(second.image.id).toBe(first.image.id);
    const byId = await createVenue({ venue: 'Image Three', image: first.image.id });
    expect(byId.image.id).toBe(first.image.id);
    // Non-image ids and garbage are refused; contributors lack upload_files for URLs.
    expect((await post('venues', { venue: 'Bad image', image: first.id })).status).toBe(400);
    expect((await post('venues', { venue: 'Bad image', image: 'foo bar' })).status).toBe(400);
    const contributorUrl = await post(
      'venues',
      { venue: 'Contributor image', image: 'https://images.example.test/c.png' },
      contributor,
    );
    expect(contributorUrl.status).toBe(400);
    expect(contributorUrl.body.data.params).toHaveProperty('image');
  });

  it('takes geo_lat and geo_lng together or not at all', async () => {
    const lone = await post('venues', { venue: 'Lone lat', geo_lat: 45 });
    expect(lone.status).toBe(400);
    expect(lone.body.code).toBe('rest_invalid_param');
    expect(lone.body.data.params).toHaveProperty('geo_lat');
    const loneLng = await post('venues', { venue: 'Lone lng', geo_lng: 9 });
    expect(loneLng.status).toBe(400);
    expect((await post('venues', { venue: 'Out of range', geo_lat: 91, geo_lng: 9 })).status).toBe(400);
    expect((await post('venues', { venue: 'Out of range', geo_lat: 45, geo_lng: 181 })).status).toBe(400);
    expect((await post('venues', { venue: 'Not a number', geo_lat: 'north', geo_lng: 9 })).status).toBe(400);
    expect((await post('venues', { venue: 'Boolean', geo_lat: true, geo_lng: true })).status).toBe(400);

    const placed = await createVenue({ venue: 'Placed', geo_lat: 45.07, geo_lng: 7.69 });
    expect(placed).toMatchObject({ geo_lat: 45.07, geo_lng: 7.69 });
    const form = await server.api('venues', {
      method: 'POST',
      auth: server.admin,
      body: new URLSearchParams({ venue: 'Placed by form', geo_lat: '-33.86', geo_lng: '151.21' }),
    });
    expect(venue(form, 201)).toMatchObject({ geo_lat: -33.86, geo_lng: 151.21 });
    // The equator and the prime meridian are places too.
    const zero = await createVenue({ venue: 'Null Island', geo_lat: 0, geo_lng: 0 });
    expect(zero).toMatchObject({ geo_lat: 0, geo_lng: 0 });

    // Updating one coordinate alone is refused; clearing both removes them.
    expect((await post(`venues/${placed.id}`, { geo_lat: 10 })).status).toBe(400);
    const moved = venue(await post(`venues/${placed.id}`, { geo_lat: 10, geo_lng: 20 }));
    expect(moved).toMatchObject({ geo_lat: 10, geo_lng: 20 });
    const cleared = venue(await post(`venues/${placed.id}`, { geo_lat: null, geo_lng: null }));
    expect(cleared).not.toHaveProperty('geo_lat');
    expect(cleared).not.toHaveProperty('geo_lng');
    const clearedByEmpty = venue(await post(`venues/${zero.id}`, { geo_lat: '', geo_lng: '' }));
    expect(clearedByEmpty).not.toHaveProperty('geo_lat');
    expect(server.engine.store.venues.get(zero.id)!.geoLat).toBeNull();
  });

  it('scales the status back by role', async () => {
    expect((await createVenue({ venue: 'Admin draft', status: 'draft' })).status).toBe('draft');
    expect((await createVenue({ venue: 'Admin default' })).status).toBe('publish');
    expect((await createVenue({ venue: 'Author publish', status: 'publish' }, author)).status).toBe(
      'publish',
    );
    expect((await createVenue({ venue: 'Contrib publish', status: 'publish' }, contributor)).status).toBe(
      'pending',
    );
    expect((await createVenue({ venue: 'Contrib future', status: 'future' }, contributor)).status).toBe(
      'pending',
    );
    expect((await createVenue({ venue: 'Contrib default' }, contributor)).status).toBe('draft');
    const own = await createVenue({ venue: 'Contrib own draft', status: 'draft' }, contributor);
    expect(own.status).toBe('draft');
    expect(own.author).toBe(String(server.engine.store.users.getByKey('carla')!.id));
    // On update too: a contributor cannot publish its own draft.
    const promoted = venue(await post(`venues/${own.id}`, { status: 'publish' }, contributor));
    expect(promoted.status).toBe('pending');
  });

  it('takes the language from ml_language, else from the language root', async () => {
    const italian = await createVenue({ venue: 'Lingua venue', ml_language: 'it' });
    expect(italian.language).toBe('it');
    const root = await fetch(`${server.engine.origin}/pl/wp-json/cal/events/v1/venues`, {
      method: 'POST',
      headers: { ...server.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ venue: 'Polish root venue' }),
    });
    expect(root.status).toBe(201);
    const body = venueResponseSchema.parse(await root.json());
    expect(body.language).toBe('pl');
    expect((await post('venues', { venue: 'Klingon', ml_language: 'tlh' })).status).toBe(400);
    // Single routes accept ml_language and ignore it.
    expect(venue(await server.api(`venues/${body.id}?ml_language=it`)).language).toBe('pl');
  });
});

describe('GET /venues/{id} and /venues/by-slug/{slug}', () => {
  it('answers an unknown id with the reference 400 (sample 31)', async () => {
    const result = await server.api('venues/99999999');
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): id',
      data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
    });
  });

  it('answers a non-venue id with 400 and a non-numeric id with 404 rest_no_route', async () => {
    const event = await post('events', eventBody('Not a venue', 5));
    expect(event.status).toBe(201);
    expect((await server.api(`venues/${event.body.id}`)).status).toBe(400);
    const word = await server.api('venues/abc');
    expect(word.status).toBe(404);
    expect(word.body.code).toBe('rest_no_route');
    expect((await server.api('venues/by-slug/')).status).toBe(404);
  });

  it('reads by slug and refuses an unknown slug with 400', async () => {
    const created = await createVenue({ venue: 'Slug Venue' });
    const read = venue(await server.api('venues/by-slug/slug-venue'));
    expect(read.id).toBe(created.id);
    expect(read).toHaveProperty('json_ld');
    const unknown = await server.api('venues/by-slug/no-such-venue');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { slug: expect.any(String) } },
    });
  });

  it('hides drafts from anonymous callers (403 venue-not-accessible) but shows them to editors', async () => {
    const draft = await createVenue({ venue: 'Hidden Draft Venue', status: 'draft' });
    for (const path of [`venues/${draft.id}`, `venues/by-slug/${draft.slug}`]) {
      const anonymous = await server.api(path);
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual({
        code: 'venue-not-accessible',
        message: 'The requested venue is not accessible',
        data: { status: 403 },
      });
      expect(venue(await server.api(path, { auth: editor })).status).toBe('draft');
    }
    // A contributor cannot read someone else's draft, but reads its own.
    expect((await server.api(`venues/${draft.id}`, { auth: contributor })).status).toBe(403);
    const own = await createVenue({ venue: 'Own Draft Venue' }, contributor);
    expect(venue(await server.api(`venues/${own.id}`, { auth: contributor })).status).toBe('draft');
  });

  it('carries an ETag that changes with every write', async () => {
    const created = await createVenue({ venue: 'Tagged Venue' });
    const first = await server.api(`venues/${created.id}`);
    const tag = first.headers.get('etag');
    expect(tag).toBeTruthy();
    expect((await server.api(`venues/${created.id}`)).headers.get('etag')).toBe(tag);
    const updated = await post(`venues/${created.id}`, { city: 'Bari' });
    expect(updated.headers.get('etag')).not.toBe(tag);
    expect((await server.api(`venues/${created.id}`)).headers.get('etag')).toBe(updated.headers.get('etag'));
  });

  it('blanks a password-protected venue unless the password or an editor with context=edit unlocks it', async () => {
    const created = await createVenue({
      venue: 'Secret Venue',
      description: 'Behind the door',
      city: 'Genoa',
      address: 'Via Segreta 1',
      phone: '555',
      website: 'https://secret.example.test',
    });
    const { store } = server.engine;
    await store.mutate((tx) => tx.putVenue({ ...store.venues.get(created.id)!, password: 'sesame' }));

    const locked = venue(await server.api(`venues/${created.id}`));
    expect(locked).toMatchObject({
      id: created.id,
      venue: [],
      description: '',
      city: '',
      address: '',
      phone: '',
      website: '',
      show_map: null,
      show_map_link: null,
      slug: 'secret-venue',
    });
    // schema.org data would leak the hidden address: it is left out.
    expect(locked).not.toHaveProperty('json_ld');
    const unlocked = venue(await server.api(`venues/${created.id}?password=sesame`));
    expect(unlocked).toMatchObject({ venue: 'Secret Venue', city: 'Genoa', show_map: true });
    expect(venue(await server.api(`venues/${created.id}?context=edit`, { auth: editor })).city).toBe('Genoa');
    expect(venue(await server.api(`venues/${created.id}`, { auth: editor })).city).toBe('');
    const listed = await server.api(`venues?search=Segreta`);
    expect(listed.status).toBe(200);
    expect(listed.body.venues).toHaveLength(1);
    expect(listed.body.venues[0]).toMatchObject({ venue: [], city: '' });
    await store.mutate((tx) => tx.putVenue({ ...store.venues.get(created.id)!, password: '' }));
  });
});

describe('POST|PUT|PATCH /venues/{id} (update)', () => {
  it('writes sent fields, clears fields sent as "", keeps absent ones', async () => {
    const created = await createVenue({
      venue: 'Patch Venue',
      address: 'Old Street 1',
      city: 'Parma',
      phone: '0521',
      website: 'https://patch.example.test',
      zip: '43121',
    });
    const updated = venue(
      await server.api(`venues/${created.id}`, {
        method: 'PATCH',
        auth: server.admin,
        json: { city: 'Modena', phone: '', website: '' },
      }),
    );
    expect(updated).toMatchObject({
      id: created.id,
      venue: 'Patch Venue',
      address: 'Old Street 1',
      city: 'Modena',
    });
    expect(updated.zip).toBe('43121');
    expect(updated).not.toHaveProperty('phone');
    expect(updated).not.toHaveProperty('website');
    expect(updated.show_map).toBe(true);
    const put = venue(
      await server.api(`venues/${created.id}`, { method: 'PUT', auth: server.admin, json: { zip: null } }),
    );
    expect(put).not.toHaveProperty('zip');
    expect(put.city).toBe('Modena');
    // A no-op POST keeps everything.
    const same = venue(await post(`venues/${created.id}`, {}));
    expect(same).toMatchObject({ venue: 'Patch Venue', address: 'Old Street 1', city: 'Modena' });
    expect(same.modified_utc >= created.modified_utc).toBe(true);
  });

  it('refuses an empty name, allows renaming to an existing name', async () => {
    const first = await createVenue({ venue: 'Rename Target' });
    const second = await createVenue({ venue: 'Rename Source' });
    const empty = await post(`venues/${second.id}`, { venue: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('rest_invalid_param');
    const renamed = venue(await post(`venues/${second.id}`, { venue: 'Rename Target' }));
    expect(renamed.id).toBe(second.id);
    expect(renamed.venue).toBe('Rename Target');
    expect(renamed.slug).toBe('rename-source');
    expect(venue(await server.api(`venues/${first.id}`)).venue).toBe('Rename Target');
  });

  it('updates by slug', async () => {
    await createVenue({ venue: 'Slug Update Venue' });
    const updated = venue(await post('venues/by-slug/slug-update-venue', { city: 'Lecce' }));
    expect(updated.city).toBe('Lecce');
    expect((await post('venues/by-slug/nothing-here', { city: 'Lecce' })).status).toBe(400);
  });

  it('checks permissions per object: anonymous 401, contributor on others 403, own draft allowed', async () => {
    const others = await createVenue({ venue: 'Someone Else Venue' });
    const anonymous = await post(`venues/${others.id}`, { city: 'X' }, ANONYMOUS);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('rest_forbidden');
    const contributorResult = await post(`venues/${others.id}`, { city: 'X' }, contributor);
    expect(contributorResult.status).toBe(403);
    expect(contributorResult.body.code).toBe('rest_forbidden');
    const own = await createVenue({ venue: 'Contributor Owned Venue' }, contributor);
    expect(venue(await post(`venues/${own.id}`, { city: 'Own' }, contributor)).city).toBe('Own');
    expect((await post(`venues/${own.id}`, { city: 'Other' }, contributor2)).status).toBe(403);
    expect(venue(await post(`venues/${own.id}`, { city: 'Edited' }, editor)).city).toBe('Edited');
    // Validation comes first: an unknown id is 400 even for anonymous callers.
    expect((await post('venues/99999998', { city: 'X' }, ANONYMOUS)).status).toBe(400);
  });

  it('honours If-Match: a stale tag is 412 and changes nothing', async () => {
    const created = await createVenue({ venue: 'Concurrent Venue', city: 'Pisa' });
    const read = await server.api(`venues/${created.id}`);
    const tag = read.headers.get('etag')!;
    const first = await server.api(`venues/${created.id}`, {
      method: 'POST',
      auth: server.admin,
      json: { city: 'Lucca' },
      headers: { 'If-Match': tag },
    });
    expect(venue(first).city).toBe('Lucca');
    const stale = await server.api(`venues/${created.id}`, {
      method: 'POST',
      auth: server.admin,
      json: { city: 'Siena' },
      headers: { 'If-Match': tag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('rest_precondition_failed');
    expect(venue(await server.api(`venues/${created.id}`)).city).toBe('Lucca');
    const staleDelete = await server.api(`venues/${created.id}`, {
      method: 'DELETE',
      auth: server.admin,
      headers: { 'If-Match': tag },
    });
    expect(staleDelete.status).toBe(412);
    expect(venue(await server.api(`venues/${created.id}`)).status).toBe('publish');
    const fresh = await server.api(`venues/${created.id}`, {
      method: 'DELETE',
      auth: server.admin,
      headers: { 'If-Match': first.headers.get('etag')! },
    });
    expect(venue(fresh).status).toBe('trash');
  });
});

describe('DELETE /venues/{id}', () => {
  it('trashes (200, samples 47/48), then answers 410 venue-is-in-trash', async () => {
    const created = await createVenue({ venue: 'Sample Trash Venue', city: 'Lisbon' });
    const first = await server.api(`venues/${created.id}`, { method: 'DELETE', auth: server.admin });
    const body = venue(first);
    expect(body).toMatchObject({
      id: created.id,
      status: 'trash',
      slug: 'sample-trash-venue__trashed',
      url: `${siteUrl()}/?post_type=tribe_venue&p=${created.id}`,
      venue: 'Sample Trash Venue',
      city: 'Lisbon',
      show_map: true,
    });
    expect(Object.keys(body).slice(0, 8)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
    ]);
    const second = await server.api(`venues/${created.id}`, { method: 'DELETE', auth: server.admin });
    expect(second.status).toBe(410);
    expect(second.body).toEqual({
      code: 'venue-is-in-trash',
      message: 'The venue is already trashed',
      data: { status: 410 },
    });
    // Trashed: anonymous cannot read it, an admin still can.
    expect((await server.api(`venues/${created.id}`)).status).toBe(403);
    expect(venue(await server.api(`venues/${created.id}`, { auth: server.admin })).status).toBe('trash');
  });

  it('hides a trashed venue on its events (as the original) and shows it again once restored (undo)', async () => {
    const created = await createVenue({ venue: 'Linked Venue' });
    const events = [
      await post('events', eventBody('Linked one', 3, { venue: created.id })),
      await post('events', eventBody('Linked two', 4, { venue: created.id, status: 'draft' })),
      await post('events', eventBody('Linked three', 5, { venue: created.id })),
    ].map((result) => result.body);
    expect(events.map((event) => event.venue.id)).toEqual([created.id, created.id, created.id]);
    const byVenue = async () =>
      (await server.api(`events?venue=${created.id}&status=any`, { auth: server.admin })).body.events.map(
        (event: { id: number }) => event.id,
      );
    expect(await byVenue()).toEqual(events.map((event) => event.id));
    const before = await server.api(`events/${events[0].id}`, { auth: server.admin });

    expect((await server.api(`venues/${created.id}`, { method: 'DELETE', auth: server.admin })).status).toBe(
      200,
    );
    for (const { id } of events) {
      const event = await server.api(`events/${id}`, { auth: server.admin });
      expect(event.status).toBe(200);
      eventResponseSchema.parse(event.body);
      expect(event.body.venue).toEqual([]);
    }
    expect(await byVenue()).toEqual([]);
    // What the events show changed: their ETag does too (a sync or a cache sees it).
    const during = await server.api(`events/${events[0].id}`, { auth: server.admin });
    expect(during.headers.get('etag')).not.toBe(before.headers.get('etag'));

    // The undo of the desktop app: a status that leaves the trash.
    expect(venue(await post(`venues/${created.id}`, { status: 'publish' })).status).toBe('publish');
    for (const { id } of events) {
      const event = await server.api(`events/${id}`, { auth: server.admin });
      eventResponseSchema.parse(event.body);
      expect(event.body.venue).toMatchObject({ id: created.id, venue: 'Linked Venue' });
    }
    expect(await byVenue()).toEqual(events.map((event) => event.id));
  });

  it('keeps a venue chosen while the old one was in the trash when the old one is restored', async () => {
    const old = await createVenue({ venue: 'Old Stage' });
    const fresh = await createVenue({ venue: 'New Stage' });
    const event = (await post('events', eventBody('Moved event', 7, { venue: old.id }))).body;
    await server.api(`venues/${old.id}`, { method: 'DELETE', auth: server.admin });
    expect((await post(`events/${event.id}`, { venue: fresh.id })).body.venue.id).toBe(fresh.id);
    await post(`venues/${old.id}`, { status: 'publish' });
    expect((await server.api(`events/${event.id}`)).body.venue.id).toBe(fresh.id);
  });

  it('deletes by slug', async () => {
    const created = await createVenue({ venue: 'Slug Delete Venue' });
    const result = await server.api('venues/by-slug/slug-delete-venue', {
      method: 'DELETE',
      auth: server.admin,
    });
    expect(venue(result)).toMatchObject({ id: created.id, status: 'trash' });
    // The trashed slug no longer resolves.
    expect(
      (await server.api('venues/by-slug/slug-delete-venue', { method: 'DELETE', auth: server.admin })).status,
    ).toBe(400);
  });

  it('validates before authorizing and checks permissions per object', async () => {
    const event = await post('events', eventBody('Event, not venue', 6));
    const notVenue = await server.api(`venues/${event.body.id}`, { method: 'DELETE' });
    expect(notVenue.status).toBe(400);
    expect(notVenue.body.code).toBe('rest_invalid_param');
    expect((await server.api('venues/99999997', { method: 'DELETE' })).status).toBe(400);

    const created = await createVenue({ venue: 'Protected From Deletion' });
    const anonymous = await server.api(`venues/${created.id}`, { method: 'DELETE' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('rest_forbidden');
    expect((await server.api(`venues/${created.id}`, { method: 'DELETE', auth: contributor })).status).toBe(
      403,
    );
    expect((await server.api(`venues/${created.id}`, { method: 'DELETE', auth: author })).status).toBe(403);
    expect(venue(await server.api(`venues/${created.id}`, { method: 'DELETE', auth: editor })).status).toBe(
      'trash',
    );
    const own = await createVenue({ venue: 'Contributor Deletable' }, contributor);
    expect(venue(await server.api(`venues/${own.id}`, { method: 'DELETE', auth: contributor })).status).toBe(
      'trash',
    );
  });
});

describe('venues inline on events (REFERENCE §5.4)', () => {
  it('creates an inline venue with the embedded shape of sample 40 and re-uses it by name', async () => {
    const result = await post(
      'events',
      eventBody('Inline venue event', 8, {
        venue: {
          venue: 'Inline Sample Venue',
          address: '1 Sample Road',
          city: 'Lisbon',
          country: 'Portugal',
        },
      }),
    );
    expect(result.status).toBe(201);
    eventResponseSchema.parse(result.body);
    const embedded = result.body.venue;
    expect(Object.keys(embedded)).toEqual(VENUE_WITH_ADDRESS_KEYS);
    const again = await post(
      'events',
      eventBody('Inline venue event 2', 9, {
        venue: { venue: 'inline sample venue', stateProvince: 'Lisboa', zip: '1000' },
      }),
    );
    expect(again.status).toBe(201);
    expect(again.body.venue.id).toBe(embedded.id);
    expect(again.body.venue).toMatchObject({ stateprovince: 'Lisboa', zip: '1000', city: 'Lisbon' });
    // The event's single GET embeds the venue with its json_ld.
    const single = await server.api(`events/${again.body.id}`);
    expect(single.body.venue).toHaveProperty('json_ld');
    venueResponseSchema.parse(single.body.venue);
    // Invalid inline data is a 400 on the event.
    const bad = await post('events', eventBody('Bad inline venue', 9, { venue: { city: 'No name' } }));
    expect(bad.status).toBe(400);
    expect(bad.body.data.params).toHaveProperty('venue');
  });

  it('gives a venue its slug back when it leaves the trash (the undo of the desktop app)', async () => {
    const created = (await post('venues', { venue: 'Round Hall' })).body;
    const trashed = await server.api(`venues/${created.id}`, { method: 'DELETE', auth: server.admin });
    expect(trashed.body.slug).toBe('round-hall__trashed');
    const restored = await post(`venues/${created.id}`, { status: 'publish' });
    expect(restored.body).toMatchObject({ status: 'publish', slug: 'round-hall' });
  });
});
