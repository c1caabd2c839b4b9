import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPeer, PEER_START_TIMEOUT_MS, type WordPressPeer } from '../helpers/wordpressPeer';
import { eventBody, type TestServer } from '../helpers/server';
import { write } from '../sync/hubAndLaptops';
import { startSiteAndLaptops, syncWithSite } from './wordpressSync';

/**
 * Two venues (and two organizers) merged on one laptop reach the real WordPress site and the other laptop as
 * event edits and one deletion each (issue 15 item 3): the site ends with one venue, every event linked to it,
 * and nothing is left to do or to decide on the next syncs.
 */
describeWithPeer('a merge of venues and organizers, synced with the real WordPress site', () => {
  let site: WordPressPeer;
  let laptopA: TestServer;
  let laptopB: TestServer;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ site, laptopA, laptopB, stop } = await startSiteAndLaptops());
  }, PEER_START_TIMEOUT_MS);
  afterAll(() => stop?.());

  const siteList = async (collection: 'venues' | 'organizers' | 'events') => {
    const window = collection === 'events' ? 'start_date=2000-01-01&end_date=2100-01-01&' : '';
    const answer = await site.api(`tribe/events/v1/${collection}?${window}per_page=50`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body[collection] as Array<Record<string, unknown> & { id: number }>;
  };
  /**
   * Each event on a laptop (by slug, not in the trash): its venue's and organizers' names. The organizers as a
   * set: the sync compares id lists in sorted order (sync/compare.ts), and the plugin may answer an updated
   * event's organizers in another order than sent (it did in CI, depending on the order of the push's
   * requests), which the other laptop then keeps.
   */
  const linksOn = (laptop: TestServer) => {
    const { store } = laptop.engine;
    return Object.fromEntries(
      [...store.events.values()]
        .filter((event) => event.status !== 'trash')
        .map((event) => [
          event.slug,
          {
            venue: store.venues.get(event.venueId)?.name ?? null,
            organizers: event.organizerIds.map((id) => store.organizers.get(id)?.name).sort(),
          },
        ]),
    );
  };

  it('the site ends with one venue and one organizer, every event linked to them, with no conflict after', async () => {
    const kept = await write(laptopA, 'venues', { venue: 'Teatro Comunale', address: 'Via Roma 1' });
    const twin = await write(laptopA, 'venues', { venue: 'Teatro Com. Bologna', address: 'via Roma 1' });
    const anna = await write(laptopA, 'organizers', { organizer: 'Anna Rossi', email: 'anna@example.org' });
    const annaToo = await write(laptopA, 'organizers', { organizer: 'A. Rossi' });
    const piero = await write(laptopA, 'organizers', { organizer: 'Piero Bianchi' });
    await write(laptopA, 'events', eventBody('Opening', 5, { venue: kept.id, organizer: [anna.id] }));
    await write(
      laptopA,
      'events',
      eventBody('Concert', 6, { venue: twin.id, organizer: [annaToo.id, piero.id] }),
    );
    await write(
      laptopA,
      'events',
      eventBody('Recital', 7, { venue: twin.id, organizer: [anna.id, annaToo.id] }),
    );
    await write(laptopA, 'events', eventBody('Draft plan', 8, { venue: twin.id, status: 'draft' }));
    for (const laptop of [laptopA, laptopB]) {
      const report = await syncWithSite(site, laptop);
      expect(report.failures).toEqual([]);
      expect(report.conflicts).toEqual([]);
    }
    expect((await siteList('venues')).map((venue) => venue.venue).sort()).toEqual([
      'Teatro Com. Bologna',
      'Teatro Comunale',
    ]);

    const merge = (kind: string, id: number, into: number) =>
      laptopA.api(`${laptopA.engine.origin}/wp-json/calendar-desk/v1/${kind}/${id}/merge`, {
        method: 'POST',
        auth: laptopA.admin,
        json: { into },
      });
    expect((await merge('venues', twin.id, kept.id)).body).toMatchObject({ moved: 3 });
    expect((await merge('organizers', annaToo.id, anna.id)).body).toMatchObject({ moved: 2 });

    const pushed = await syncWithSite(site, laptopA);
    expect(pushed.failures).toEqual([]);
    expect(pushed.conflicts).toEqual([]);
    expect(
      pushed.operations.map((operation) => [operation.type, operation.kind, operation.title]).sort(),
    ).toEqual(
      [
        ['update', 'event', 'Concert'],
        ['update', 'event', 'Recital'],
        ['update', 'event', 'Draft plan'],
        ['delete', 'organizer', 'A. Rossi'],
        ['delete', 'venue', 'Teatro Com. Bologna'],
      ].sort(),
    );

    // The site: one Teatro, one Anna, and every event there linked to them.
    const venues = await siteList('venues');
    expect(venues.map((venue) => venue.venue)).toEqual(['Teatro Comunale']);
    const organizers = (await siteList('organizers')).map((organizer) => organizer.organizer).sort();
    expect(organizers).toEqual(['Anna Rossi', 'Piero Bianchi']);
    const events = await siteList('events');
    // The plugin's list shows drafts to this administrator's application password.
    expect(events.map((event) => event.title).sort()).toEqual([
      'Concert',
      'Draft plan',
      'Opening',
      'Recital',
    ]);
    for (const event of events) {
      expect((event.venue as { id: number }).id, String(event.title)).toBe(venues[0]!.id);
    }
    const concert = events.find((event) => event.title === 'Concert')!;
    // Both organizers, the merged one once (the plugin's order of an event's organizers after an update
    // came back reversed once under load: the order is not what this test is about).
    expect((concert.organizer as Array<{ organizer: string }>).map((one) => one.organizer).sort()).toEqual([
      'Anna Rossi',
      'Piero Bianchi',
    ]);

    // Laptop B takes the merge in; then nothing is left to do on either side.
    const pulled = await syncWithSite(site, laptopB);
    expect(pulled.failures).toEqual([]);
    expect(pulled.conflicts).toEqual([]);
    expect(pulled.summary).toMatchObject({ created: 0, imported: 0, trashed: 2 });
    expect(linksOn(laptopB)).toEqual(linksOn(laptopA));
    for (const laptop of [laptopA, laptopB]) {
      const quiet = await syncWithSite(site, laptop);
      expect(quiet.operations).toEqual([]);
      expect(quiet.conflicts).toEqual([]);
    }
  });
});
