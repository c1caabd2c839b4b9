import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPeer, PEER_START_TIMEOUT_MS } from '../helpers/wordpressPeer';
import { remoteIdOf, startWordPressPair, type WordPressPair } from './wordpressSync';

/**
 * A series in two-way sync with the real WordPress + The Events Calendar site as the hub. The site has no
 * series: each date is an event of its own there. An edit made on the site to one date comes back as a change of
 * that occurrence alone (an override), while the series' edits made here reach every date.
 */
describeWithPeer('a series in two-way sync with the real WordPress site', () => {
  let pair: WordPressPair;
  beforeAll(async () => {
    pair = await startWordPressPair();
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await pair?.stop();
  });

  const sync = async () => {
    const report = await pair.sync({ direction: 'both' });
    expect(report.failures).toEqual([]);
    expect(report.conflicts).toEqual([]);
    return report;
  };

  /** The site's rehearsals as it stores them (raw texts), by start. */
  const siteRehearsals = async () => {
    const listed = await pair.site.api('tribe/events/v1/events?start_date=2027-01-01&per_page=50');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const events = (listed.body.events as { id: number; start_date: string }[]).sort((a, b) =>
      a.start_date.localeCompare(b.start_date),
    );
    return Promise.all(
      events.map(async (event) => {
        const stored = await pair.site.api(`wp/v2/tribe_events/${event.id}?context=edit`);
        expect(stored.status, JSON.stringify(stored.body)).toBe(200);
        return {
          id: event.id,
          start: event.start_date,
          title: String(stored.body.title.raw),
          description: String(stored.body.content.raw).trim(),
        };
      }),
    );
  };

  /** The local series, head first, by original start. */
  const localSeries = (headId: number) =>
    [...pair.local.engine.store.events.values()]
      .filter((event) => event.status !== 'trash' && (event.id === headId || event.parentId === headId))
      .sort((a, b) => a.recurrenceId!.localeCompare(b.recurrenceId!));

  it('a date edited on the site comes back as that occurrence’s own change; the series edit made here reaches every date', async () => {
    const head = await pair.post('events', {
      title: 'Choir rehearsal',
      description: 'Bring your scores',
      start_date: '2027-03-09 19:30:00',
      end_date: '2027-03-09 21:30:00',
      timezone: 'Europe/Paris',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4'],
    });
    expect((await sync()).summary).toMatchObject({ created: 4 });
    const third = localSeries(head.id)[2]!;

    // Someone moves the third rehearsal to the crypt in the site itself (its REST API).
    const onSite = await pair.site.api(`tribe/events/v1/events/${remoteIdOf(pair, 'event', third.id)}`, {
      method: 'POST',
      json: { description: 'In the crypt, bring a coat' },
    });
    expect(onSite.status, JSON.stringify(onSite.body)).toBe(200);
    // Meanwhile the whole series gets a new title here.
    await pair.post(`events/${head.id}`, { title: 'Choir rehearsal (new hall)', scope: 'all' });

    const report = await sync();
    expect(report.summary).toMatchObject({ created: 0, imported: 0, failed: 0 });

    // Here: still one series; the third date changed on its own (the site's description, the series' title).
    const series = localSeries(head.id);
    expect(
      series.map((event) => [event.title, event.description, event.override, event.recurrenceId]),
    ).toEqual([
      ['Choir rehearsal (new hall)', 'Bring your scores', undefined, '2027-03-09 19:30:00'],
      ['Choir rehearsal (new hall)', 'Bring your scores', undefined, '2027-03-16 19:30:00'],
      ['Choir rehearsal (new hall)', 'In the crypt, bring a coat', true, '2027-03-23 19:30:00'],
      ['Choir rehearsal (new hall)', 'Bring your scores', undefined, '2027-03-30 19:30:00'],
    ]);
    expect(series[0]!.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU']);

    // The site: the same four dates, no duplicate, each with the series' title and the crypt kept.
    expect(
      (await siteRehearsals()).map(({ start, title, description }) => [start, title, description]),
    ).toEqual([
      ['2027-03-09 19:30:00', 'Choir rehearsal (new hall)', 'Bring your scores'],
      ['2027-03-16 19:30:00', 'Choir rehearsal (new hall)', 'Bring your scores'],
      ['2027-03-23 19:30:00', 'Choir rehearsal (new hall)', 'In the crypt, bring a coat'],
      ['2027-03-30 19:30:00', 'Choir rehearsal (new hall)', 'Bring your scores'],
    ]);

    // A later series edit here passes the third date by, for what it changed on its own.
    await pair.post(`events/${head.id}`, { description: 'Bring your scores and a pencil', scope: 'all' });
    await sync();
    expect((await siteRehearsals()).map(({ description }) => description)).toEqual([
      'Bring your scores and a pencil',
      'Bring your scores and a pencil',
      'In the crypt, bring a coat',
      'Bring your scores and a pencil',
    ]);
    const quiet = await pair.sync({ direction: 'both', dryRun: true });
    expect(quiet.conflicts).toEqual([]);
    expect(quiet.operations).toEqual([]);
  }, 240_000);
});
