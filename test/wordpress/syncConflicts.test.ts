import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPeer, PEER_START_TIMEOUT_MS } from '../helpers/wordpressPeer';
import {
  buildCalendar,
  remoteIdOf,
  startWordPressPair,
  type Calendar,
  type WordPressPair,
} from './wordpressSync';

/**
 * A record edited here and, meanwhile, on the site itself (through its REST API, as another editor's tools
 * would): each policy settles it as it says, and `remote-wins` takes the site's version as the site stores it.
 */
describeWithPeer('conflicts with edits made on the real WordPress site', () => {
  let pair: WordPressPair;
  let calendar: Calendar;
  beforeAll(async () => {
    pair = await startWordPressPair();
    calendar = await buildCalendar(pair);
    const first = await pair.sync();
    expect(first.failures).toEqual([]);
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await pair?.stop();
  });

  const siteEvent = async (localId: number) =>
    (await pair.site.api(`tribe/events/v1/events/${remoteIdOf(pair, 'event', localId)}`)).body;
  const localEvent = async (localId: number) =>
    (await pair.local.api(`events/${localId}`, { auth: pair.local.admin })).body;
  /**
   * An edit on the site through WordPress' REST API, as the block editor saves one: what it is given changes,
   * nothing else (the plugin's own route resets every field a partial update leaves out).
   */
  const editOnSite = async (localId: number, json: Record<string, unknown>) => {
    const answer = await pair.site.api(`wp/v2/tribe_events/${remoteIdOf(pair, 'event', localId)}`, {
      method: 'POST',
      json,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };

  it('ask and skip: the conflict is listed with its diff, neither side is touched', async () => {
    await pair.post(`events/${calendar.concert}`, { title: 'Jazz Night (local)' });
    await editOnSite(calendar.concert, { title: 'Jazz Night (site)' });
    for (const policy of ['ask', 'skip'] as const) {
      const report = await pair.sync({ policy });
      expect(report.operations).toEqual([]);
      expect(report.conflicts).toEqual([
        expect.objectContaining({
          kind: 'event',
          localId: calendar.concert,
          reason: 'both-changed',
          diff: [{ field: 'title', local: 'Jazz Night (local)', remote: 'Jazz Night (site)' }],
        }),
      ]);
      expect((await siteEvent(calendar.concert)).title).toBe('Jazz Night (site)');
      expect((await localEvent(calendar.concert)).title).toBe('Jazz Night (local)');
    }
  });

  it('local-wins: the local version replaces the site edit, every other field kept', async () => {
    const report = await pair.sync({ policy: 'local-wins' });
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ updated: 1, conflicts: 0 });
    expect(await siteEvent(calendar.concert)).toMatchObject({
      title: 'Jazz Night (local)',
      timezone: 'Europe/Paris',
      start_date: '2027-03-12 20:00:00',
      utc_start_date: '2027-03-12 19:00:00',
      cost_details: { values: ['15'] },
    });
    expect((await pair.sync()).operations).toEqual([]);
  });

  it('remote-wins: the site version as the site stores it, every paragraph, the cost, the excerpt', async () => {
    const description =
      '<p>Route changed: start at the <em>bridge</em>.</p>\n<p>Water &amp; snacks every 5 km.</p>\n<p>Finish at the park.</p>';
    await pair.post(`events/${calendar.marathon}`, { title: 'City Marathon 2027' });
    await editOnSite(calendar.marathon, {
      title: 'City Marathon (new route)',
      content: description,
      excerpt: 'New route & snacks',
      meta: { _EventCost: '25' },
    });
    const report = await pair.sync({ policy: 'remote-wins' });
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ pulled: 1, conflicts: 0 });

    const stored = (
      await pair.site.api(`wp/v2/tribe_events/${remoteIdOf(pair, 'event', calendar.marathon)}?context=edit`)
    ).body;
    const local = await localEvent(calendar.marathon);
    expect(local.title).toBe('City Marathon (new route)');
    expect(local.description).toBe(stored.content.raw);
    expect(local.description.match(/<p>/g)).toHaveLength(3);
    // The site stores the excerpt as typed; the local calendar keeps excerpts as HTML: the same text.
    expect(stored.excerpt.raw).toBe('New route & snacks');
    expect(local.excerpt).toBe('New route &amp; snacks');
    expect(local.cost_details.values).toEqual(['25']);
    expect(local.cost).toContain('25');
    // Everything else stays as both sides have it.
    expect(local).toMatchObject({
      timezone: 'America/New_York',
      start_date: '2027-05-01 07:30:00',
      sticky: true,
    });
    const again = await pair.sync();
    expect(again.operations).toEqual([]);
    expect(again.conflicts).toEqual([]);
  });

  it('remote-wins on a venue: its name as written on the site, without entities', async () => {
    const hall = remoteIdOf(pair, 'venue', calendar.hall);
    await pair.post(`venues/${calendar.hall}`, { phone: '+33 4 22 22 22 22' });
    const edited = await pair.site.api(`tribe/events/v1/venues/${hall}`, {
      method: 'POST',
      json: { venue: "Town Hall & Mayor's Annex", phone: '+33 4 33 33 33 33' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.venue).toContain('&#038;');
    const report = await pair.sync({ policy: 'remote-wins' });
    expect(report.summary).toMatchObject({ pulled: 1, failed: 0 });
    const local = (await pair.local.api(`venues/${calendar.hall}`, { auth: pair.local.admin })).body;
    expect(local).toMatchObject({
      venue: "Town Hall & Mayor's Annex",
      phone: '+33 4 33 33 33 33',
      city: 'Lyon',
    });
    expect((await pair.sync()).operations).toEqual([]);
  });
});
