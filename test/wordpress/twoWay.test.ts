import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPeer, PEER_START_TIMEOUT_MS, type WordPressPeer } from '../helpers/wordpressPeer';
import { eventBody, type TestServer } from '../helpers/server';
import { write } from '../sync/hubAndLaptops';
import { startSiteAndLaptops, syncWithSite } from './wordpressSync';
import { decodeHtmlEntities } from '../../src/main/core/html';

/**
 * The team's WordPress site as the hub of two laptops: what each laptop plans, and what someone changes in the
 * site itself, reaches everyone (two-way sync, the default).
 */
describeWithPeer('two laptops and the real WordPress site as their hub', () => {
  let site: WordPressPeer;
  let laptopA: TestServer;
  let laptopB: TestServer;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ site, laptopA, laptopB, stop } = await startSiteAndLaptops());
  }, PEER_START_TIMEOUT_MS);
  afterAll(() => stop?.());

  /** The laptop's events by slug (title, description, status): what the calendar shows. */
  const eventsOf = (laptop: TestServer) =>
    Object.fromEntries(
      [...laptop.engine.store.events.values()]
        .filter((event) => event.status !== 'trash')
        .map((event) => [event.slug, { title: event.title, description: event.description }]),
    );
  const idBySlug = (laptop: TestServer, slug: string) =>
    [...laptop.engine.store.events.values()].find((event) => event.slug === slug)!.id;
  const siteEvents = async () => {
    const answer = await site.api(
      'tribe/events/v1/events?start_date=2000-01-01&end_date=2100-01-01&per_page=50',
    );
    expect(answer.status).toBe(200);
    return Object.fromEntries(
      (answer.body.events as { slug: string; id: number; title: string; description: string }[]).map(
        (event) => [event.slug, event],
      ),
    );
  };

  it('edits made on each laptop and on the site itself merge; a deletion on the site trashes it here', async () => {
    const hall = await write(laptopA, 'venues', { venue: 'Town Hall', address: '1 Market Square' });
    const fair = await write(
      laptopA,
      'events',
      eventBody('Book fair', 5, { venue: hall.id, description: 'Stalls' }),
    );
    const talk = await write(laptopA, 'events', eventBody('Talk', 6, { description: 'About bees' }));
    await write(laptopA, 'events', eventBody('Film', 7));
    expect((await syncWithSite(site, laptopA)).failures).toEqual([]);
    const imported = await syncWithSite(site, laptopB);
    expect(imported.failures).toEqual([]);
    expect(imported.summary).toMatchObject({ imported: 4, created: 0, conflicts: 0 });
    expect(eventsOf(laptopB)).toEqual(eventsOf(laptopA));
    // A round trip is never an edit: nothing to do on either side.
    for (const laptop of [laptopA, laptopB])
      expect((await syncWithSite(site, laptop)).operations).toEqual([]);

    // Someone fixes a typo in the site (its REST API), creates an event there, and deletes the film;
    // meanwhile laptop A changes the talk's description and laptop B its title.
    const onSite = await siteEvents();
    const fixed = await site.api(`wp/v2/tribe_events/${onSite[fair.slug]!.id}`, {
      method: 'POST',
      json: { title: 'Book fair & flea market' },
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    const concert = await site.api('tribe/events/v1/events', {
      method: 'POST',
      json: { ...eventBody('Concert', 8), description: 'Choir' },
    });
    expect(concert.status, JSON.stringify(concert.body)).toBe(201);
    // A draft made there too: the plugin's list shows drafts to this administrator's application password
    // (checked on this site: no `status` needed), so it comes as a draft.
    const draft = await site.api('tribe/events/v1/events', {
      method: 'POST',
      json: { ...eventBody('Draft idea', 9), status: 'draft' },
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const deleted = await site.api(`tribe/events/v1/events/${onSite['film']!.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    await write(laptopA, `events/${talk.id}`, { description: 'About bees and honey' });
    await write(laptopB, `events/${idBySlug(laptopB, talk.slug)}`, { title: 'Talk: bees' });

    // Both sync twice in turn.
    for (const laptop of [laptopA, laptopB, laptopA, laptopB]) {
      const report = await syncWithSite(site, laptop);
      expect(report.failures).toEqual([]);
      expect(report.conflicts).toEqual([]);
    }
    const expected = {
      [fair.slug]: { title: 'Book fair & flea market', description: 'Stalls' },
      [talk.slug]: { title: 'Talk: bees', description: 'About bees and honey' },
      concert: { title: 'Concert', description: 'Choir' },
    };
    // WordPress gives a draft no slug until it is published: the draft is compared by its title.
    const drafts = (laptop: TestServer) =>
      [...laptop.engine.store.events.values()].filter((event) => event.status === 'draft');
    for (const laptop of [laptopA, laptopB]) {
      expect(drafts(laptop).map((event) => event.title)).toEqual(['Draft idea']);
      const { [drafts(laptop)[0]!.slug]: _draft, ...published } = eventsOf(laptop);
      expect(published).toEqual(expected);
    }
    const finalSite = await siteEvents();
    // The plugin shows titles with entities (`&#038;`).
    expect(
      Object.values(finalSite)
        .map((event) => decodeHtmlEntities(event.title))
        .sort(),
    ).toEqual(['Book fair & flea market', 'Concert', 'Draft idea', 'Talk: bees']);
    expect(finalSite[talk.slug]).toMatchObject({ title: 'Talk: bees' });
    expect(finalSite[talk.slug]!.description).toContain('About bees and honey');
    // The film is in both laptops' trash (restorable), and nothing is left to do.
    for (const laptop of [laptopA, laptopB]) {
      const film = [...laptop.engine.store.events.values()].find((event) => event.title === 'Film');
      expect(film?.status).toBe('trash');
      expect((await syncWithSite(site, laptop)).operations).toEqual([]);
    }
  }, 240_000);
});
