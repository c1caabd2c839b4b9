import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allOf, startSyncPair, type SyncPair } from './syncHelpers';

let pair: SyncPair;
beforeEach(async () => {
  pair = await startSyncPair();
});
afterEach(async () => {
  await pair.close();
});

/** The events of a server whose title names a rehearsal, by start: title, start, uid. */
async function rehearsals(server: SyncPair['local']) {
  return (await allOf(server, 'events'))
    .filter((event) => String(event.title).includes('rehearsal'))
    .map((event) => [event.title, event.start_date, event.uid])
    .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
}

/**
 * A series pushed to another Calendar Desk. Each occurrence goes as an event of its own, with its own uid (so
 * both calendars hold the same records); the recurrence fields are not compared, so a series plans no change
 * on the next sync.
 */
describe('sync: a series pushed to another Calendar Desk', () => {
  it('every occurrence arrives with its uid and date; series edits and removed occurrences follow; then nothing is planned', async () => {
    const { local } = pair;
    const head = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: {
        title: 'Choir rehearsal',
        start_date: '2027-03-09 19:30:00',
        end_date: '2027-03-09 21:30:00',
        timezone: 'Europe/Rome',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4'],
      },
    });
    expect(head.status, JSON.stringify(head.body)).toBe(201);

    const first = await pair.sync();
    expect(first.failures).toEqual([]);
    expect(first.summary).toMatchObject({ created: 4, failed: 0, conflicts: 0 });
    const localSeries = await rehearsals(local);
    expect(localSeries.map((event) => event[1])).toEqual([
      '2027-03-09 19:30:00',
      '2027-03-16 19:30:00',
      '2027-03-23 19:30:00',
      '2027-03-30 19:30:00',
    ]);
    expect(await rehearsals(pair.remote)).toEqual(localSeries);
    expect((await pair.sync({ dryRun: true })).operations).toEqual([]);

    const renamed = await local.api(`events/${head.body.id}`, {
      method: 'POST',
      auth: local.admin,
      json: { title: 'Choir rehearsal (crypt)', scope: 'all' },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const occurrences = await local.api(`events?post_parent=${head.body.id}&start_date=2027-01-01`, {
      auth: local.admin,
    });
    const removed = await local.api(`events/${occurrences.body.events[1].id}?scope=this`, {
      method: 'DELETE',
      auth: local.admin,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const second = await pair.sync();
    expect(second.failures).toEqual([]);
    expect(second.summary).toMatchObject({ updated: 3, deleted: 1, failed: 0, conflicts: 0 });
    const remoteSeries = await rehearsals(pair.remote);
    expect(remoteSeries.map((event) => [event[0], event[1]])).toEqual([
      ['Choir rehearsal (crypt)', '2027-03-09 19:30:00'],
      ['Choir rehearsal (crypt)', '2027-03-16 19:30:00'],
      ['Choir rehearsal (crypt)', '2027-03-30 19:30:00'],
    ]);
    expect(remoteSeries).toEqual(await rehearsals(local));
    expect((await pair.sync({ dryRun: true })).operations).toEqual([]);
  });
});
