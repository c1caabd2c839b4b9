import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The same requests to the original (WordPress + The Events Calendar) and to Calendar Desk, compared where
 * issue 10 found us different: subcategory addresses, non-picture image URLs, the wp/v2 term routes that
 * term links name (with targetHints), API discovery from the site address, events of a trashed venue.
 */
describeWithPeer('Calendar Desk answers as the original does', () => {
  let peer: WordPressPeer;
  let local: TestServer;
  beforeAll(async () => {
    [peer, local] = await Promise.all([startWordPressPeer(), startTestServer()]);
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all([peer?.stop(), local?.close()]);
  });

  /** The same request to both: `tribe/events/v1/…` there, `cal/events/v1/…` here. */
  async function both(path: string, init: { method?: string; json?: unknown; anonymous?: boolean } = {}) {
    const remote = await peer.api(path.replace(/^cal\//, 'tribe/'), {
      method: init.method,
      json: init.json,
      ...(init.anonymous ? { auth: null } : {}),
    });
    const ours = await local.api(path.replace(/^cal\/events\/v1\//, ''), {
      method: init.method,
      json: init.json,
      auth: init.anonymous ? undefined : local.admin,
    });
    return { remote, ours };
  }
  const fetchOurs = async (path: string) => {
    const response = await fetch(`${local.engine.apiRoot}${path}`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are asserted field by field
    const body: any = await response.json();
    return { status: response.status, headers: response.headers, body };
  };

  it('gives a subcategory the address of its ancestry, and wp/v2 term answers of the same shape', async () => {
    const parents = await both('cal/events/v1/categories', { method: 'POST', json: { name: 'Festivals' } });
    const remoteChild = await peer.api('tribe/events/v1/categories', {
      method: 'POST',
      json: { name: 'Summer', parent: parents.remote.body.id },
    });
    const ourChild = await local.api('categories', {
      method: 'POST',
      auth: local.admin,
      json: { name: 'Summer', parent: parents.ours.body.id },
    });
    expect(remoteChild.status, JSON.stringify(remoteChild.body)).toBe(201);
    expect(ourChild.status, JSON.stringify(ourChild.body)).toBe(201);
    const path = (url: string) => new URL(url).pathname;
    expect(path(remoteChild.body.url)).toBe('/events/category/festivals/summer/');
    expect(path(ourChild.body.url)).toBe(path(remoteChild.body.url));
    expect((await fetch(remoteChild.body.url)).status).toBe(200);
    expect((await fetch(ourChild.body.url)).status).toBe(200);

    // Anonymous reads of the single term: _links rels (ours without wp:post_type) and targetHints.
    const remoteSingle = await peer.api(`tribe/events/v1/categories/${remoteChild.body.id}`, { auth: null });
    const ourSingle = await local.api(`categories/${ourChild.body.id}`);
    const remoteRels = Object.keys(remoteSingle.body._links).filter((rel) => rel !== 'wp:post_type');
    expect(Object.keys(ourSingle.body._links)).toEqual(remoteRels);
    expect(ourSingle.body._links.self[0].targetHints).toEqual(remoteSingle.body._links.self[0].targetHints);
    expect(ourSingle.body._links.up[0]).toEqual({
      embeddable: true,
      href: `${local.engine.apiRoot}wp/v2/tribe_events_cat/${parents.ours.body.id}`,
    });

    // The wp/v2 route the self link names: same keys, same values where they are not ids or addresses.
    const remoteWp = await peer.api(`wp/v2/tribe_events_cat/${remoteChild.body.id}`, { auth: null });
    const ourWp = await fetchOurs(`wp/v2/tribe_events_cat/${ourChild.body.id}`);
    expect(remoteWp.status).toBe(200);
    expect(Object.keys(ourWp.body)).toEqual(Object.keys(remoteWp.body));
    for (const key of ['count', 'description', 'name', 'slug', 'taxonomy', 'meta'])
      expect(ourWp.body[key], key).toEqual(remoteWp.body[key]);
    expect(path(ourWp.body.link)).toBe(path(remoteWp.body.link));
    const remoteTags = await peer.api('wp/v2/tags', { auth: null });
    const ourTags = await fetchOurs('wp/v2/tags');
    expect(ourTags.status).toBe(remoteTags.status);
    expect(ourTags.headers.get('allow')).toBe(remoteTags.headers.get('allow'));
  });

  it('refuses image URLs that name a non-picture file type with the same error', async () => {
    for (const url of ['https://example.com/a.raw', 'https://example.com/a.txt']) {
      const { remote, ours } = await both('cal/events/v1/venues', {
        method: 'POST',
        json: { venue: `Venue ${url}`, image: url },
      });
      expect(remote.status, url).toBe(400);
      expect(ours.status, url).toBe(400);
      expect(ours.body.code).toBe(remote.body.code);
      expect(ours.body.message).toBe(remote.body.message);
      expect(Object.keys(ours.body.data.params)).toEqual(Object.keys(remote.body.data.params));
    }
  });

  it('names the REST root in a Link header on the home page', async () => {
    for (const [site, root] of [
      [peer.site, peer.root],
      [local.engine.origin, `${local.engine.origin}/wp-json/`],
    ]) {
      const home = await fetch(`${site}/`);
      await home.arrayBuffer();
      expect(home.headers.get('link'), site).toContain(`<${root}>; rel="https://api.w.org/"`);
    }
  });

  it('shows the events of a trashed venue without it; ours get it back on restore', async () => {
    const venues = await both('cal/events/v1/venues', { method: 'POST', json: { venue: 'Old Mill' } });
    const event = (venue: number) => ({
      title: 'At the mill',
      start_date: '2031-06-01 10:00:00',
      end_date: '2031-06-01 12:00:00',
      venue,
    });
    const remoteEvent = await peer.api('tribe/events/v1/events', {
      method: 'POST',
      json: event(venues.remote.body.id),
    });
    const ourEvent = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: event(venues.ours.body.id),
    });
    await peer.api(`tribe/events/v1/venues/${venues.remote.body.id}`, { method: 'DELETE' });
    await local.api(`venues/${venues.ours.body.id}`, { method: 'DELETE', auth: local.admin });
    const remoteAfter = await peer.api(`tribe/events/v1/events/${remoteEvent.body.id}`);
    const ourAfter = await local.api(`events/${ourEvent.body.id}`, { auth: local.admin });
    expect(remoteAfter.body.venue).toEqual([]);
    expect(ourAfter.body.venue).toEqual(remoteAfter.body.venue);
    await local.api(`venues/${venues.ours.body.id}`, {
      method: 'POST',
      auth: local.admin,
      json: { status: 'publish' },
    });
    expect((await local.api(`events/${ourEvent.body.id}`)).body.venue.id).toBe(venues.ours.body.id);
  });
});
