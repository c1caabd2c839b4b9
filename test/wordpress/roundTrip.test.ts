import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPeer, PEER_START_TIMEOUT_MS, type WordPressPeer } from '../helpers/wordpressPeer';
import { eventBody, type TestServer } from '../helpers/server';
import { write } from '../sync/hubAndLaptops';
import { startSiteAndLaptops } from './wordpressSync';
import { runSync, type SyncOptions, type SyncReport } from '../../src/main/sync/sync';
import { folderOwner } from '../../src/main/core/users';
import { LinkState, remoteKey } from '../../src/main/sync/linkState';
import { addLinkedPost } from '../../src/main/core/linkedPosts';

/**
 * Issue 28 items 1 and 2 against the real WordPress site: what a laptop sends comes back the same (a cost
 * keeps the event's currency), venues and organizers of one name are never made one record on the site
 * behind the user's back, and a second sync has nothing to do.
 */
describeWithPeer('round trips with the real WordPress site: costs and same names', () => {
  let site: WordPressPeer;
  let laptopA: TestServer;
  let laptopB: TestServer;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ site, laptopA, laptopB, stop } = await startSiteAndLaptops());
  }, PEER_START_TIMEOUT_MS);
  afterAll(() => stop?.());

  const sync = (laptop: TestServer, options: Partial<SyncOptions> = {}): Promise<SyncReport> =>
    runSync({
      store: laptop.engine.store,
      caller: folderOwner(laptop.engine.store),
      policy: 'ask',
      ...options,
      remote: {
        root: site.root,
        namespace: 'tribe/events/v1',
        auth: { user: site.admin.user, password: site.admin.password },
        backoffMs: 1,
      },
    });
  const planned = (report: SyncReport) =>
    report.operations.filter((operation) => operation.type !== 'accept');
  const siteList = async (collection: 'venues' | 'organizers') => {
    const answer = await site.api(`tribe/events/v1/${collection}?per_page=50`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body[collection] as Array<Record<string, unknown> & { id: number }>;
  };
  const linksOf = (laptop: TestServer) =>
    new LinkState(
      laptop.engine.store,
      remoteKey(site.root, 'tribe/events/v1'),
      site.root,
      'tribe/events/v1',
    ).all();
  /** A venue or organizer created as an import does: one of the same name is another (the API would reuse it). */
  const importLinked = async (
    laptop: TestServer,
    kind: 'venue' | 'organizer',
    input: Record<string, unknown>,
  ) => {
    const { store } = laptop.engine;
    const call = { store, caller: folderOwner(store), now: new Date(), language: 'en' as const };
    return addLinkedPost(kind, input, call, { avoidDuplicates: false });
  };
  const byTitle = (laptop: TestServer, title: string) =>
    [...laptop.engine.store.events.values()].find((event) => event.title === title)!;

  it('keeps the cost and the currency of each event here through the site, and then has nothing to do', async () => {
    const costs: [string, Record<string, unknown>][] = [
      ['Plain', { cost: '10' }],
      ['Euros', { cost: '15€' }],
      ['Reduced', { cost: '20€ / 10€ reduced' }],
      ['Pounds', { cost: '12', currency_symbol: '£', currency_position: 'prefix', currency_code: 'GBP' }],
    ];
    const ids: Record<string, number> = {};
    for (const [index, [title, cost]] of costs.entries())
      ids[title] = (await write(laptopA, 'events', eventBody(title, 3 + index, cost))).id;
    const pick = (laptop: TestServer, title: string) => {
      const event = laptop.engine.store.events.get(ids[title]!)!;
      const { cost, currencySymbol, currencyPosition, currencyCode } = event;
      return { cost, currencySymbol, currencyPosition, currencyCode };
    };
    const before = Object.fromEntries(costs.map(([title]) => [title, pick(laptopA, title)]));
    const first = await sync(laptopA);
    expect(first.failures).toEqual([]);
    expect(first.summary.created).toBe(4);

    // Links written before two-way sync have no base: an event changed on both sides is then taken whole
    // from the site (`remote-wins`), its cost as the site stores it (`10` went there as `$10`).
    const links = new LinkState(
      laptopA.engine.store,
      remoteKey(site.root, 'tribe/events/v1'),
      site.root,
      'tribe/events/v1',
    );
    for (const link of links.all().filter((one) => one.kind === 'event'))
      await links.put({ ...link, base: undefined });
    // Each event changed on both sides; the site's version wins.
    for (const [title] of costs) {
      await write(laptopA, `events/${ids[title]}`, { title: `${title} (here)` });
      const remoteId = linksOf(laptopA).find(
        (link) => link.kind === 'event' && link.localId === ids[title],
      )!.remoteId!;
      // Through WordPress' own route: the plugin's would take its cost as sent, none.
      const edited = await site.api(`wp/v2/tribe_events/${remoteId}`, {
        method: 'POST',
        json: { title: `${title} (site)` },
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    }
    const taken = await sync(laptopA, { policy: 'remote-wins' });
    expect(taken.failures).toEqual([]);
    // Taken whole: the site's cost text differs from the one here by its formatting alone.
    expect(taken.operations.map((operation) => operation.type)).toEqual(['pull', 'pull', 'pull', 'pull']);
    for (const [title] of costs) {
      // The site's version was taken (its title)…
      expect(laptopA.engine.store.events.get(ids[title]!)?.title).toBe(`${title} (site)`);
      // …and the cost and currency here stayed as they were.
      expect(pick(laptopA, title)).toEqual(before[title]);
    }
    expect(planned(await sync(laptopA))).toEqual([]);

    // The other laptop shows each price as this one does; a worded cost as the site shows it (the plugin reads
    // no currency from `20€ / 10€ reduced` and shows it in the site's: REFERENCE, test/wordpress/currency).
    expect((await sync(laptopB)).summary).toMatchObject({ imported: 4, failed: 0 });
    const shown = async (laptop: TestServer, title: string) =>
      (await laptop.api(`events/${byTitle(laptop, `${title} (site)`).id}`)).body.cost as string;
    for (const title of ['Plain', 'Euros', 'Pounds'])
      expect(await shown(laptopB, title)).toBe(await shown(laptopA, title));
    const reducedThere = linksOf(laptopA).find(
      (link) => link.kind === 'event' && link.localId === ids.Reduced,
    )!.remoteId!;
    const onSite = await site.api(`tribe/events/v1/events/${reducedThere}`);
    expect(await shown(laptopB, 'Reduced')).toBe(onSite.body.cost);
    expect(planned(await sync(laptopB))).toEqual([]);
    expect(planned(await sync(laptopA))).toEqual([]);
  });

  it('names venues and organizers of one name before sending, keeps them apart when asked, and then has nothing to do', async () => {
    const mitte = await write(laptopA, 'venues', {
      venue: 'Riverside Studio Berlin',
      address: 'Spreeweg 1',
      city: 'Berlin-Mitte',
    });
    const kreuzberg = await importLinked(laptopA, 'venue', {
      venue: 'Riverside Studio Berlin',
      address: 'Köpenicker Str. 70',
      city: 'Berlin-Kreuzberg',
    });
    const mia = await write(laptopA, 'organizers', { organizer: 'Mia Wolf', email: 'mia@one.example' });
    const miaToo = await importLinked(laptopA, 'organizer', {
      organizer: 'Mia Wolf',
      email: 'mia@two.example',
    });
    await write(laptopA, 'events', eventBody('At Mitte', 20, { venue: mitte.id, organizer: [mia.id] }));
    await write(
      laptopA,
      'events',
      eventBody('At Kreuzberg', 21, { venue: kreuzberg.id, organizer: [miaToo.id] }),
    );

    // The preview names the pairs and the names keeping them apart would give; nothing is sent without a choice.
    const preview = await sync(laptopA, { dryRun: true });
    expect(preview.sameNames).toEqual([
      {
        kind: 'venue',
        name: 'Riverside Studio Berlin',
        localIds: [mitte.id, kreuzberg.id],
        apartNames: ['Riverside Studio Berlin', 'Riverside Studio Berlin (Berlin-Kreuzberg)'],
      },
      {
        kind: 'organizer',
        name: 'Mia Wolf',
        localIds: [mia.id, miaToo.id],
        apartNames: ['Mia Wolf', 'Mia Wolf (mia@two.example)'],
      },
    ]);
    await expect(sync(laptopA)).rejects.toMatchObject({ code: 'SYNC_SAME_NAMES' });
    expect((await siteList('venues')).filter((venue) => String(venue.venue).startsWith('Riverside'))).toEqual(
      [],
    );

    const apart = await sync(laptopA, { sameNames: 'keep-apart' });
    expect(apart.failures).toEqual([]);
    expect(apart.summary.created).toBe(6);
    const venues = Object.fromEntries(
      (await siteList('venues'))
        .filter((venue) => String(venue.venue).startsWith('Riverside'))
        .map((venue) => [venue.venue, venue.address]),
    );
    expect(venues).toEqual({
      'Riverside Studio Berlin': 'Spreeweg 1',
      'Riverside Studio Berlin (Berlin-Kreuzberg)': 'Köpenicker Str. 70',
    });
    const organizers = (await siteList('organizers')).filter((organizer) =>
      String(organizer.organizer).startsWith('Mia Wolf'),
    );
    expect(Object.fromEntries(organizers.map((organizer) => [organizer.organizer, organizer.email]))).toEqual(
      { 'Mia Wolf': 'mia@one.example', 'Mia Wolf (mia@two.example)': 'mia@two.example' },
    );
    // Never two records here linked to one there.
    for (const kind of ['venue', 'organizer']) {
      const remoteIds = linksOf(laptopA)
        .filter((link) => link.kind === kind)
        .map((link) => link.remoteId);
      expect(new Set(remoteIds).size).toBe(remoteIds.length);
    }
    // Here as there: the second of each pair now carries the name it has on the site, its address its own.
    expect(laptopA.engine.store.venues.get(kreuzberg.id)).toMatchObject({
      name: 'Riverside Studio Berlin (Berlin-Kreuzberg)',
      address: 'Köpenicker Str. 70',
    });
    expect(laptopA.engine.store.venues.get(mitte.id)).toMatchObject({ address: 'Spreeweg 1' });
    expect(planned(await sync(laptopA))).toEqual([]);
    expect(planned(await sync(laptopB))).not.toEqual([]);
    expect(planned(await sync(laptopB))).toEqual([]);
    expect(planned(await sync(laptopA))).toEqual([]);
  });

  it('merges venues of one name here first when asked: one venue here and there, nothing to do after', async () => {
    const north = await write(laptopA, 'venues', { venue: 'Harbour Hall', address: 'Kai 1' });
    const south = await importLinked(laptopA, 'venue', { venue: 'Harbour Hall', address: 'Kai 9' });
    await write(laptopA, 'events', eventBody('North gig', 30, { venue: north.id }));
    await write(laptopA, 'events', eventBody('South gig', 31, { venue: south.id }));

    const merged = await sync(laptopA, { sameNames: 'merge' });
    expect(merged.failures).toEqual([]);
    expect(merged.sameNames).toMatchObject([{ kind: 'venue', localIds: [north.id, south.id] }]);
    expect(laptopA.engine.store.venues.get(south.id)?.status).toBe('trash');
    expect(byTitle(laptopA, 'South gig').venueId).toBe(north.id);
    const halls = (await siteList('venues')).filter((venue) => venue.venue === 'Harbour Hall');
    expect(halls.map((venue) => venue.address)).toEqual(['Kai 1']);
    expect(planned(await sync(laptopA))).toEqual([]);
  });
});
