import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPeer, PEER_START_TIMEOUT_MS } from '../helpers/wordpressPeer';
import { remoteIdOf, sitePosts, startWordPressPair, type WordPressPair } from './wordpressSync';

/**
 * A repeating event pushed to the real WordPress + The Events Calendar site. The free plugin has no recurrence in
 * its API: each occurrence becomes an event of its own on the site, linked to its local occurrence. The tests run
 * in order on one site: each builds on what the previous one pushed.
 */
describeWithPeer('a series pushed to the real WordPress site', () => {
  let pair: WordPressPair;
  let head: number;
  /** The local events of the series, head first, by start. */
  let series: { id: number; start_date: string }[];
  beforeAll(async () => {
    pair = await startWordPressPair();
    // Six Tuesday rehearsals in Paris, across the change to summer time (2027-03-28).
    head = (
      await pair.post('events', {
        title: 'Choir rehearsal',
        start_date: '2027-03-09 19:30:00',
        end_date: '2027-03-09 21:30:00',
        timezone: 'Europe/Paris',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6'],
      })
    ).id;
    const rest = await pair.local.api(`events?post_parent=${head}&per_page=50&start_date=2027-01-01`, {
      auth: pair.local.admin,
    });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    series = [{ id: head, start_date: '2027-03-09 19:30:00' }, ...rest.body.events];
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await pair?.stop();
  });

  /** The site's events of the series, as the plugin shows them, by start. */
  const siteRehearsals = async () => {
    const answer = await pair.site.api('tribe/events/v1/events?start_date=2027-01-01&per_page=50');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body.events as Record<string, unknown>[])
      .filter((event) => String(event.title).includes('rehearsal'))
      .sort((a, b) => String(a.utc_start_date).localeCompare(String(b.utc_start_date)));
  };

  it('the first sync creates one event on the site per occurrence, each at its instant, linked to its occurrence', async () => {
    expect(series).toHaveLength(6);
    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 6, failed: 0, conflicts: 0 });

    const onSite = await siteRehearsals();
    expect(onSite.map((event) => [event.start_date, event.utc_start_date, event.timezone])).toEqual([
      ['2027-03-09 19:30:00', '2027-03-09 18:30:00', 'Europe/Paris'],
      ['2027-03-16 19:30:00', '2027-03-16 18:30:00', 'Europe/Paris'],
      ['2027-03-23 19:30:00', '2027-03-23 18:30:00', 'Europe/Paris'],
      // Summer time: the same wall clock, one hour earlier in UTC.
      ['2027-03-30 19:30:00', '2027-03-30 17:30:00', 'Europe/Paris'],
      ['2027-04-06 19:30:00', '2027-04-06 17:30:00', 'Europe/Paris'],
      ['2027-04-13 19:30:00', '2027-04-13 17:30:00', 'Europe/Paris'],
    ]);
    // Each local occurrence is linked to the site's event at its own date.
    const byId = new Map(onSite.map((event) => [event.id, event]));
    for (const occurrence of series) {
      const linked = byId.get(remoteIdOf(pair, 'event', occurrence.id));
      expect(linked?.start_date, `occurrence ${occurrence.id}`).toBe(occurrence.start_date);
    }
  });

  it('a second sync plans nothing: the recurrence fields are neither sent to nor compared with the site', async () => {
    const planned = await pair.sync({ dryRun: true });
    expect(planned.conflicts).toEqual([]);
    expect(planned.operations).toEqual([]);
  });

  it('a new title for the whole series and one occurrence deleted: the site shows five events with the new title', async () => {
    const renamed = await pair.local.api(`events/${head}`, {
      method: 'POST',
      auth: pair.local.admin,
      json: { title: 'Choir rehearsal (crypt)', scope: 'all' },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const dropped = series[3]!;
    const removed = await pair.local.api(`events/${dropped.id}?scope=this`, {
      method: 'DELETE',
      auth: pair.local.admin,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const droppedOnSite = remoteIdOf(pair, 'event', dropped.id);

    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ updated: 5, deleted: 1, failed: 0, conflicts: 0 });

    const onSite = await siteRehearsals();
    expect(onSite.map((event) => [event.title, event.start_date])).toEqual([
      ['Choir rehearsal (crypt)', '2027-03-09 19:30:00'],
      ['Choir rehearsal (crypt)', '2027-03-16 19:30:00'],
      ['Choir rehearsal (crypt)', '2027-03-23 19:30:00'],
      ['Choir rehearsal (crypt)', '2027-04-06 19:30:00'],
      ['Choir rehearsal (crypt)', '2027-04-13 19:30:00'],
    ]);
    // The removed occurrence is gone from what WordPress stores, not only from the plugin's list.
    const stored = await sitePosts(pair.site, 'tribe_events');
    expect(stored.map((post: { id: number }) => post.id)).not.toContain(droppedOnSite);
  });

  it('the sync after that plans nothing', async () => {
    const planned = await pair.sync({ dryRun: true });
    expect(planned.conflicts).toEqual([]);
    expect(planned.operations).toEqual([]);
  });

  it('this and the following deleted, then a rule every two weeks: the site loses the dates the series no longer has', async () => {
    const following = await pair.local.api(`events/${series[5]!.id}?scope=following`, {
      method: 'DELETE',
      auth: pair.local.admin,
    });
    expect(following.status, JSON.stringify(following.body)).toBe(200);
    let report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ deleted: 1, failed: 0, conflicts: 0 });
    expect((await siteRehearsals()).map((event) => event.start_date)).toEqual([
      '2027-03-09 19:30:00',
      '2027-03-16 19:30:00',
      '2027-03-23 19:30:00',
      '2027-04-06 19:30:00',
    ]);

    const everyOther = await pair.local.api(`events/${head}`, {
      method: 'POST',
      auth: pair.local.admin,
      json: { recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=3'], scope: 'all' },
    });
    expect(everyOther.status, JSON.stringify(everyOther.body)).toBe(200);
    report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ failed: 0, conflicts: 0 });
    // 03-09, 03-23, 04-06 stay (04-06 was never deleted: only 03-30 was); 03-16 is no date of the new rule.
    expect((await siteRehearsals()).map((event) => event.start_date)).toEqual([
      '2027-03-09 19:30:00',
      '2027-03-23 19:30:00',
      '2027-04-06 19:30:00',
    ]);
    const planned = await pair.sync({ dryRun: true });
    expect(planned.operations).toEqual([]);
  });

  it('the head deleted alone: the next occurrence heads the series, the site loses only the first date', async () => {
    const gone = await pair.local.api(`events/${head}?scope=this`, {
      method: 'DELETE',
      auth: pair.local.admin,
    });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ deleted: 1, failed: 0, conflicts: 0 });
    expect((await siteRehearsals()).map((event) => [event.title, event.start_date])).toEqual([
      ['Choir rehearsal (crypt)', '2027-03-23 19:30:00'],
      ['Choir rehearsal (crypt)', '2027-04-06 19:30:00'],
    ]);
    const planned = await pair.sync({ dryRun: true });
    expect(planned.conflicts).toEqual([]);
    expect(planned.operations).toEqual([]);
  });
});
