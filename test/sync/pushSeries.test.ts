import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allOf, startSyncPair, type SyncPair } from './syncHelpers';

let pair: SyncPair;
beforeEach(async () => {
  pair = await startSyncPair();
});
afterEach(async () => {
  await pair.close();
});

type Server = SyncPair['local'];

/** The events of a server whose title names a rehearsal, by start. */
async function rehearsals(server: Server) {
  return (await allOf(server, 'events'))
    .filter((event) => String(event.title).toLowerCase().includes('rehearsal'))
    .sort((a, b) => String(a.start_date).localeCompare(String(b.start_date)));
}

const post = async (server: Server, path: string, json: unknown, status = 200) => {
  const answer = await server.api(path, { method: 'POST', auth: server.admin, json });
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
};

/** Four Tuesday rehearsals in Rome, created in the local calendar. */
const createRehearsals = () =>
  post(
    pair.local,
    'events',
    {
      title: 'Choir rehearsal',
      start_date: '2027-03-09 19:30:00',
      end_date: '2027-03-09 21:30:00',
      timezone: 'Europe/Rome',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4'],
    },
    201,
  );

/** The remote id the sync linked a local event to. */
function linkedId(localId: number): number | null {
  const store = pair.local.engine.store;
  const key = store.syncKeys('link:').find((entry) => entry.endsWith(`|event:${localId}`));
  return key ? ((store.syncState(key) as { remoteId: number | null }).remoteId ?? null) : null;
}

/**
 * A series pushed to another Calendar Desk goes as a series: the head with its `recurrence` (the remote makes
 * the occurrences), the remote's occurrences linked to ours by their original start; an occurrence changed on
 * its own goes as an update of its remote occurrence with scope `this`.
 */
describe('sync: a series pushed to another Calendar Desk', () => {
  it('the head goes with its rule, the occurrences are the remote’s own, linked by their original start; then nothing is planned', async () => {
    const { local, remote } = pair;
    const head = await createRehearsals();

    const first = await pair.sync();
    expect(first.failures).toEqual([]);
    // One create: the remote made the three other occurrences itself.
    expect(first.summary).toMatchObject({ created: 1, updated: 0, failed: 0, conflicts: 0 });

    const ours = await rehearsals(local);
    const theirs = await rehearsals(remote);
    expect(theirs.map((event) => [event.start_date, event.recurrence_id])).toEqual(
      ours.map((event) => [event.start_date, event.recurrence_id]),
    );
    expect(theirs).toHaveLength(4);
    const remoteHead = theirs[0]!;
    expect(remoteHead).toMatchObject({ recurrence: ours[0]!.recurrence, uid: head.uid });
    expect(remoteHead.recurrence).toEqual([expect.stringMatching(/^RRULE:FREQ=WEEKLY;.*COUNT=4/)]);
    // The rest of the series there: the remote's own occurrences of its head.
    const children = await remote.api(`events?post_parent=${String(remoteHead.id)}&start_date=2027-01-01`, {
      auth: remote.admin,
    });
    expect(children.status, JSON.stringify(children.body)).toBe(200);
    expect(children.body.events.map((event: { id: number }) => event.id)).toEqual(
      theirs.slice(1).map((event) => event.id),
    );
    // Each local occurrence is linked to the remote's occurrence of the same original start.
    for (const [index, event] of theirs.entries()) expect(linkedId(Number(ours[index]!.id))).toBe(event.id);
    expect(linkedId(head.id)).toBe(remoteHead.id);
    const again = await pair.sync({ dryRun: true });
    expect(again.conflicts).toEqual([]);
    expect(again.operations).toEqual([]);
  });

  it('an occurrence changed on its own, a series rename and a removed occurrence: the remote series follows, then nothing is planned', async () => {
    const { local, remote } = pair;
    const head = await createRehearsals();
    expect((await pair.sync()).failures).toEqual([]);
    const ours = await rehearsals(local);

    // The second one moves to the crypt on its own (scope this), then the series gets a new title.
    await post(local, `events/${String(ours[1]!.id)}`, { title: 'Crypt rehearsal' });
    await post(local, `events/${head.id}`, { title: 'Choir rehearsal (new hall)', scope: 'all' });
    const removed = await local.api(`events/${String(ours[2]!.id)}?scope=this`, {
      method: 'DELETE',
      auth: local.admin,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ failed: 0, conflicts: 0 });
    // The head with scope all (the rename and the removed date) and the occurrence changed on its own.
    expect(report.summary).toMatchObject({ created: 0, updated: 2 });

    const expected = [
      ['Choir rehearsal (new hall)', '2027-03-09 19:30:00'],
      ['Crypt rehearsal', '2027-03-16 19:30:00'],
      ['Choir rehearsal (new hall)', '2027-03-30 19:30:00'],
    ];
    expect((await rehearsals(local)).map((event) => [event.title, event.start_date])).toEqual(expected);
    const theirs = await rehearsals(remote);
    expect(theirs.map((event) => [event.title, event.start_date])).toEqual(expected);
    // Still one series there, the removed date excluded from its rule.
    expect(theirs[0]!.recurrence).toEqual((await rehearsals(local))[0]!.recurrence);

    const again = await pair.sync({ dryRun: true });
    expect(again.conflicts).toEqual([]);
    expect(again.operations).toEqual([]);
  });

  it('a series split from an occurrence on (scope following) and a new rule: the remote holds the same two series, then nothing is planned', async () => {
    const { local, remote } = pair;
    const head = await createRehearsals();
    expect((await pair.sync()).failures).toEqual([]);
    const ours = await rehearsals(local);

    // From the third on, an hour later: a second series.
    await post(local, `events/${String(ours[2]!.id)}`, {
      start_date: '2027-03-23 20:30:00',
      end_date: '2027-03-23 22:30:00',
      scope: 'following',
    });
    let report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ failed: 0, conflicts: 0 });
    const shape = async (server: Server) =>
      (await rehearsals(server)).map((event) => [event.start_date, event.recurrence_id, event.recurrence]);
    expect(await shape(remote)).toEqual(await shape(local));
    expect((await rehearsals(remote)).map((event) => event.start_date)).toEqual([
      '2027-03-09 19:30:00',
      '2027-03-16 19:30:00',
      '2027-03-23 20:30:00',
      '2027-03-30 20:30:00',
    ]);
    expect((await pair.sync({ dryRun: true })).operations).toEqual([]);

    // The first series every day, three times.
    await post(local, `events/${head.id}`, {
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
      scope: 'all',
    });
    report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ failed: 0, conflicts: 0 });
    expect(await shape(remote)).toEqual(await shape(local));
    expect((await rehearsals(remote)).map((event) => event.start_date)).toEqual([
      '2027-03-09 19:30:00',
      '2027-03-10 19:30:00',
      '2027-03-11 19:30:00',
      '2027-03-23 20:30:00',
      '2027-03-30 20:30:00',
    ]);
    const again = await pair.sync({ dryRun: true });
    expect(again.conflicts).toEqual([]);
    expect(again.operations).toEqual([]);
  });

  it('a rule without an end: the remote makes the same occurrences up to the horizon, none sent on its own', async () => {
    const { local, remote } = pair;
    await post(
      local,
      'events',
      {
        title: 'Monthly rehearsal',
        start_date: '2027-01-05 18:00:00',
        end_date: '2027-01-05 20:00:00',
        timezone: 'Europe/Rome',
        recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=1TU'],
      },
      201,
    );
    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 1, updated: 0, failed: 0, conflicts: 0 });
    const starts = async (server: Server) =>
      (await rehearsals(server)).map((event) => [event.start_date, event.recurrence_id]);
    const ours = await starts(local);
    expect(ours.length).toBeGreaterThan(12);
    expect(await starts(remote)).toEqual(ours);
    expect((await pair.sync({ dryRun: true })).operations).toEqual([]);
  });

  it('an occurrence changed before the first sync, then the head deleted alone: the remote follows, then nothing is planned', async () => {
    const { local, remote } = pair;
    const head = await createRehearsals();
    const ours = await rehearsals(local);
    await post(local, `events/${String(ours[3]!.id)}`, { title: 'Last rehearsal, with the orchestra' });
    let report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 1, updated: 1, failed: 0, conflicts: 0 });
    const titles = async (server: Server) =>
      (await rehearsals(server)).map((event) => [event.title, event.start_date]);
    expect(await titles(remote)).toEqual(await titles(local));
    expect((await titles(remote))[3]).toEqual(['Last rehearsal, with the orchestra', '2027-03-30 19:30:00']);

    const gone = await local.api(`events/${head.id}?scope=this`, { method: 'DELETE', auth: local.admin });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ failed: 0, conflicts: 0 });
    expect((await titles(remote)).map((event) => event[1])).toEqual([
      '2027-03-16 19:30:00',
      '2027-03-23 19:30:00',
      '2027-03-30 19:30:00',
    ]);
    expect(await titles(remote)).toEqual(await titles(local));
    const again = await pair.sync({ dryRun: true });
    expect(again.conflicts).toEqual([]);
    expect(again.operations).toEqual([]);
  });
});
