import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPeer, PEER_START_TIMEOUT_MS } from '../helpers/wordpressPeer';
import { outageWithCreatesInFlight, startProxy, type Proxy } from '../helpers/droppingProxy';
import { eventBody } from '../helpers/server';
import { startWordPressPair, type WordPressPair } from './wordpressSync';
import { peerEvents } from './localCalendar';

const TITLES = Array.from({ length: 8 }, (_, index) => `Recital ${index + 1}`);

/**
 * The site goes down while 4 event creates are in flight (a proxy in front of the real site, see
 * {@link outageWithCreatesInFlight}): one answered, two stored but unconfirmed, one refused; then every request
 * gets 502. PHP killed inside the plugin's create can also leave a half-made event (the post written,
 * then its meta, then the plugin's occurrence tables): one that no list of the site shows.
 */
describeWithPeer('sync to the real site when it goes down with creates in flight', () => {
  let pair: WordPressPair;
  let proxy: Proxy;
  /** The slug of an event whose create is stored part-way and answered 502 (the second test). */
  let answerLostOf: string | null = null;
  const isEventCreate = (method: string, url: string) =>
    method === 'POST' && url.split('?')[0]!.endsWith('/tribe/events/v1/events');
  const outage = outageWithCreatesInFlight(isEventCreate);
  /**
   * What PHP killed inside the plugin's create after the post and its meta, before the plugin's own tables,
   * leaves: the event answers with every field, but no list of the site shows it.
   */
  const withoutOccurrences = (postIds: string) =>
    pair.site.sql(
      `DELETE FROM wp_tec_occurrences WHERE post_id IN ${postIds}; DELETE FROM wp_tec_events WHERE post_id IN ${postIds};`,
    );
  beforeAll(async () => {
    pair = await startWordPressPair();
    for (const [index, title] of TITLES.entries()) await pair.post('events', eventBody(title, 3 + index));
    proxy = await startProxy(
      pair.site.site,
      (method, url) =>
        answerLostOf && isEventCreate(method, url)
          ? { status: 502, afterForwarding: true }
          : outage.misbehave(method, url),
      async (method, url) => {
        await outage.before(method, url);
        // The look-up after the lost answer: PHP was killed before the plugin's tables were written.
        if (answerLostOf && method === 'GET' && url.includes(`/events/by-slug/${answerLostOf}`)) {
          const slug = answerLostOf;
          answerLostOf = null;
          await withoutOccurrences(`(SELECT ID FROM wp_posts WHERE post_name = '${slug}')`);
        }
      },
    );
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await proxy?.close();
    await pair?.stop();
  });

  it('stops with the site not answering; the re-run publishes each event once, completing the half-made ones', async () => {
    const stopped = await pair.sync({ root: proxy.root }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(stopped).toMatchObject({ code: 'REMOTE_UNAVAILABLE', exitStatus: 3 });
    // On the site: the answered create, and the two done whose answer the sync never had.
    const onSite = await peerEvents(pair.site);
    expect(onSite).toHaveLength(3);

    // Creates whose outcome the sync does not know: checkpointed as sent, linked to nothing yet.
    const store = pair.local.engine.store;
    const eventLinks = store
      .syncKeys('link:')
      .map((key) => store.syncState(key) as { kind: string; localId: number; remoteId: number | null })
      .filter((link) => link.kind === 'event');
    const linked = new Set(eventLinks.map((link) => link.remoteId));
    const unconfirmed = onSite.filter((event) => !linked.has(event.id));
    expect(unconfirmed).toHaveLength(2);
    const refused = eventLinks
      .filter((link) => link.remoteId === null)
      .map((link) => store.events.get(link.localId)!)
      .find((event) => !onSite.some((post) => post.title === event.title));
    expect(refused).toBeDefined();

    // What PHP killed inside the plugin's create leaves: killed before the plugin's own tables (see above),
    await withoutOccurrences(`(${unconfirmed[0]!.id})`);
    // or after the post, before its meta: a post with no dates.
    const postOnly = await pair.site.api('wp/v2/tribe_events', {
      method: 'POST',
      json: { title: refused!.title, slug: refused!.slug, status: 'publish' },
    });
    expect(postOnly.status, JSON.stringify(postOnly.body)).toBe(201);
    expect(await peerEvents(pair.site)).toHaveLength(2);

    outage.up();
    const resumed = await pair.sync({ root: proxy.root });
    expect(resumed.failures, JSON.stringify(resumed.failures)).toEqual([]);
    expect(resumed.conflicts).toEqual([]);
    // Found by slug and adopted (never sent twice), each sent again so that it is complete on the site.
    expect(resumed.summary).toMatchObject({ adopted: 3, created: 4, failed: 0 });
    const events = await peerEvents(pair.site);
    expect(events.map((event) => event.title).sort()).toEqual([...TITLES].sort());
    expect(events.filter((event) => event.status !== 'publish')).toEqual([]);
    const again = await pair.sync({ root: proxy.root, dryRun: true });
    expect(again.operations).toEqual([]);
  });

  it('a create stored part-way and answered 502 is found by its look-up and completed in the same run', async () => {
    const encore = await pair.post('events', eventBody('Encore', 12));
    answerLostOf = String(encore.slug);
    const report = await pair.sync({ root: proxy.root });
    expect(answerLostOf).toBeNull();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 1, adopted: 0, failed: 0 });
    const events = await peerEvents(pair.site);
    expect(events.filter((event) => event.title === 'Encore')).toHaveLength(1);
    expect((await pair.sync({ root: proxy.root, dryRun: true })).operations).toEqual([]);
  });
});
