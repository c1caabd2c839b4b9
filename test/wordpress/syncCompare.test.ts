import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPeer, PEER_START_TIMEOUT_MS } from '../helpers/wordpressPeer';
import { startProxy, type Proxy } from '../helpers/droppingProxy';
import { buildCalendar, sitePosts, startWordPressPair, type WordPressPair } from './wordpressSync';

/**
 * The site shows what it stores its own way: paragraphs added, entities, typographic quotes and dashes, costs as
 * lists of words and numbers. The sync compares both sides through one normaliser, so equal content is equal.
 */
describeWithPeer('sync compares what the real WordPress site shows with the local calendar', () => {
  let pair: WordPressPair;
  let secondAddress: Proxy;
  beforeAll(async () => {
    pair = await startWordPressPair();
    await buildCalendar(pair);
    // What WordPress rewrites most when it shows a record.
    await pair.post('categories', { name: 'Rock & Roll' });
    await pair.post('venues', { venue: "O'Brien's Pub & Grill", description: 'Upstairs.\nSecond door.' });
    await pair.post('events', {
      title: 'Quotes "here" isn\'t -- it',
      description: 'Line one & more\n\nLine two...',
      start_date: '2027-06-01 10:00:00',
      end_date: '2027-06-01 11:00:00',
      cost: 'Free',
    });
    await pair.post('events', {
      title: 'Nothing to pay',
      start_date: '2027-06-02 10:00:00',
      end_date: '2027-06-02 11:00:00',
      cost: '0',
    });
    const first = await pair.sync();
    expect(first.failures).toEqual([]);
    // The same site under a second address: to the sync a new remote, with no links.
    secondAddress = await startProxy(pair.site.site, () => null);
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await secondAddress?.close();
    await pair?.stop();
  });

  it('the same calendar synced to a second address of the site: every record adopted as it is, no conflict, nothing sent', async () => {
    const posts = async () =>
      (
        await Promise.all(
          ['tribe_events', 'tribe_venue', 'tribe_organizer'].map((type) => sitePosts(pair.site, type)),
        )
      ).flat().length;
    const before = await posts();
    const planned = await pair.sync({ root: secondAddress.root, dryRun: true });
    expect(planned.conflicts).toEqual([]);
    expect(new Set(planned.operations.map((operation) => operation.type))).toEqual(new Set(['adopt']));
    expect(planned.operations.every((operation) => operation.type === 'adopt' && !operation.thenUpdate)).toBe(
      true,
    );
    // 4 categories, 2 tags, 3 venues, 2 organizers, 7 events (the hidden one found by its slug).
    expect(planned.operations).toHaveLength(18);

    const report = await pair.sync({ root: secondAddress.root });
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ adopted: 18, created: 0, updated: 0, uploaded: 0, conflicts: 0 });
    const again = await pair.sync({ root: secondAddress.root });
    expect(again.operations).toEqual([]);
    expect(await posts()).toBe(before);
    expect((await pair.site.api('wp/v2/media?per_page=100')).body).toHaveLength(1);
  });

  it('a local edit sent to the second address reuses the picture already on the site', async () => {
    const events = (await pair.local.api('events?per_page=50', { auth: pair.local.admin })).body.events;
    const concert = events.find((event: { title: string }) => event.title === 'Jazz & Swing Night')!;
    await pair.post(`events/${concert.id}`, { title: 'Jazz & Swing Night II' });
    const report = await pair.sync({ root: secondAddress.root });
    expect(report.summary).toMatchObject({ updated: 1, uploaded: 0, failed: 0 });
    expect((await pair.site.api('wp/v2/media?per_page=100')).body).toHaveLength(1);
  });

  it('the same edit made on both sides is not a conflict', async () => {
    const local = (await pair.local.api('venues?per_page=50', { auth: pair.local.admin })).body.venues;
    const pub = local.find((venue) => typeof venue.venue === 'string' && venue.venue.startsWith('O'))!;
    await pair.post(`venues/${pub.id}`, { city: 'Dublin', description: 'Upstairs & left.\nSecond door.' });
    const remote = (await pair.site.api('tribe/events/v1/venues/by-slug/' + pub.slug)).body;
    const edited = await pair.site.api(`tribe/events/v1/venues/${remote.id}`, {
      method: 'POST',
      json: { city: 'Dublin', description: 'Upstairs &amp; left.\nSecond door.' },
    });
    expect(edited.status).toBe(200);
    const report = await pair.sync({ root: secondAddress.root });
    expect(report.conflicts).toEqual([]);
    expect(report.operations).toEqual([
      expect.objectContaining({ type: 'accept', kind: 'venue', localId: pub.id }),
    ]);
    expect((await pair.sync({ root: secondAddress.root })).operations).toEqual([]);
  });
});
