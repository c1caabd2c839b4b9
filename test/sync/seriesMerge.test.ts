import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server';
import type { ConflictPolicy } from '../../src/main/sync/model';
import { exportByUid, idOf, startHubAndLaptops, syncWith, write, type HubAndLaptops } from './hubAndLaptops';

/**
 * Recurring series in two-way sync, with three real Calendar Desk servers (two laptops and a hub): a series is
 * merged as a series, so that an edit of the whole series on one side and of one occurrence on the other both
 * survive, and the series stays one series (a head with its rule, occurrences with their original start).
 */
let servers: HubAndLaptops;
let hub: TestServer;
let laptopA: TestServer;
let laptopB: TestServer;
beforeEach(async () => {
  servers = await startHubAndLaptops();
  ({ hub, laptopA, laptopB } = servers);
});
afterEach(async () => {
  await servers?.close();
});

const sync = (laptop: TestServer, policy: ConflictPolicy = 'ask') => syncWith(hub, laptop, policy);

/** The events of a series on a server, by original start: [title, start, recurrence_id, override]. */
function seriesOn(server: TestServer, headUid: string) {
  const store = server.engine.store;
  const head = [...store.events.values()].find((event) => event.uid === headUid)!;
  return [...store.events.values()]
    .filter((event) => event.status !== 'trash' && (event.id === head.id || event.parentId === head.id))
    .sort((a, b) => a.recurrenceId!.localeCompare(b.recurrenceId!));
}

/** Four Tuesday rehearsals in Rome, made on laptop A, synced to the hub and to laptop B. */
async function sharedRehearsals() {
  const head = await write(laptopA, 'events', {
    title: 'Choir rehearsal',
    description: 'Bring your scores',
    start_date: '2027-03-09 19:30:00',
    end_date: '2027-03-09 21:30:00',
    timezone: 'Europe/Rome',
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4'],
  });
  for (const laptop of [laptopA, laptopB]) {
    const report = await sync(laptop);
    expect(report.failures).toEqual([]);
    expect(report.conflicts).toEqual([]);
  }
  return head;
}

/** Both laptops sync twice in turn; every sync without failures (conflicts are the test's to check). */
async function syncTwiceInTurn(policy: ConflictPolicy = 'ask') {
  const reports = [];
  for (const laptop of [laptopA, laptopB, laptopA, laptopB]) {
    const report = await sync(laptop, policy);
    expect(report.failures).toEqual([]);
    reports.push(report);
  }
  return reports;
}

/** The three calendars are one, and a further sync plans nothing on either laptop. */
async function expectConverged() {
  const hubExport = exportByUid(hub.engine.store);
  expect(exportByUid(laptopA.engine.store)).toEqual(hubExport);
  expect(exportByUid(laptopB.engine.store)).toEqual(hubExport);
  for (const laptop of [laptopA, laptopB]) {
    const quiet = await sync(laptop);
    expect(quiet.conflicts).toEqual([]);
    expect(quiet.operations).toEqual([]);
  }
}

describe('two-way sync of a series between two laptops and a hub', () => {
  it('a series made on one laptop reaches the other as a series, with the same uids', async () => {
    const head = await sharedRehearsals();
    // B imported one event, the head; its occurrences were made from the rule and linked to the hub's.
    const again = await sync(laptopB);
    expect(again.operations).toEqual([]);
    for (const server of [hub, laptopB]) {
      const events = seriesOn(server, head.uid);
      expect(events.map((event) => [event.startLocal, event.recurrenceId, event.parentId === 0])).toEqual([
        ['2027-03-09 19:30:00', '2027-03-09 19:30:00', true],
        ['2027-03-16 19:30:00', '2027-03-16 19:30:00', false],
        ['2027-03-23 19:30:00', '2027-03-23 19:30:00', false],
        ['2027-03-30 19:30:00', '2027-03-30 19:30:00', false],
      ]);
      expect(events[0]!.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU']);
    }
    await expectConverged();
  });

  it('A edits the whole series, B one occurrence: every date has A’s edit, B’s occurrence keeps its own as an override', async () => {
    const head = await sharedRehearsals();
    const second = seriesOn(laptopB, head.uid)[1]!;
    // A: a new title and half an hour later, for every date. B: the second rehearsal's description alone.
    await write(laptopA, `events/${head.id}`, {
      title: 'Choir rehearsal (new hall)',
      start_date: '2027-03-09 20:00:00',
      end_date: '2027-03-09 22:00:00',
      scope: 'all',
    });
    await write(laptopB, `events/${second.id}`, { description: 'Sectional: tenors only' });
    // And moves the last one to the Wednesday, alone: the series' new time does not move it back.
    await write(laptopB, `events/${seriesOn(laptopB, head.uid)[3]!.id}`, {
      start_date: '2027-03-31 18:00:00',
      end_date: '2027-03-31 20:00:00',
    });

    const reports = await syncTwiceInTurn();
    for (const report of reports) expect(report.conflicts).toEqual([]);

    for (const server of [hub, laptopA, laptopB]) {
      const events = seriesOn(server, head.uid);
      expect(
        events.map((event) => [
          event.title,
          event.description,
          event.startLocal,
          event.recurrenceId,
          event.override,
        ]),
        `on ${server === hub ? 'the hub' : server === laptopA ? 'laptop A' : 'laptop B'}`,
      ).toEqual([
        [
          'Choir rehearsal (new hall)',
          'Bring your scores',
          '2027-03-09 20:00:00',
          '2027-03-09 20:00:00',
          undefined,
        ],
        [
          'Choir rehearsal (new hall)',
          'Sectional: tenors only',
          '2027-03-16 20:00:00',
          '2027-03-16 20:00:00',
          true,
        ],
        [
          'Choir rehearsal (new hall)',
          'Bring your scores',
          '2027-03-23 20:00:00',
          '2027-03-23 20:00:00',
          undefined,
        ],
        [
          'Choir rehearsal (new hall)',
          'Bring your scores',
          '2027-03-31 18:00:00',
          '2027-03-30 20:00:00',
          true,
        ],
      ]);
      expect(events[0]!.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU']);
      expect(events.slice(1).every((event) => event.parentId === events[0]!.id)).toBe(true);
    }
    await expectConverged();
  });

  it('A retitles one date alone while B retitles the series: that date keeps A’s title, the others take B’s', async () => {
    const head = await sharedRehearsals();
    const second = seriesOn(laptopA, head.uid)[1]!;
    await write(laptopA, `events/${second.id}`, { title: 'Sectional rehearsal' });
    await write(laptopB, `events/${idOf(laptopB, head.uid)}`, {
      title: 'Rehearsal in the crypt',
      scope: 'all',
    });

    for (const report of await syncTwiceInTurn()) expect(report.conflicts).toEqual([]);
    for (const server of [hub, laptopA, laptopB]) {
      expect(seriesOn(server, head.uid).map((event) => [event.title, event.override])).toEqual([
        ['Rehearsal in the crypt', undefined],
        ['Sectional rehearsal', true],
        ['Rehearsal in the crypt', undefined],
        ['Rehearsal in the crypt', undefined],
      ]);
    }
    await expectConverged();
  });

  it('B edits the first date alone while A edits the series: the first date is an override everywhere, the series follows A', async () => {
    const head = await sharedRehearsals();
    await write(laptopB, `events/${idOf(laptopB, head.uid)}`, { description: 'First one: auditions' });
    await write(laptopA, `events/${head.id}`, { title: 'Choir rehearsal (new hall)', scope: 'all' });

    for (const report of await syncTwiceInTurn()) expect(report.conflicts).toEqual([]);
    for (const server of [hub, laptopA, laptopB]) {
      expect(
        seriesOn(server, head.uid).map((event) => [event.title, event.description, event.override]),
      ).toEqual([
        ['Choir rehearsal (new hall)', 'First one: auditions', true],
        ['Choir rehearsal (new hall)', 'Bring your scores', undefined],
        ['Choir rehearsal (new hall)', 'Bring your scores', undefined],
        ['Choir rehearsal (new hall)', 'Bring your scores', undefined],
      ]);
    }
    await expectConverged();
  });

  it('the series retitled differently on both laptops: one conflict, the head’s; the decision goes for the whole series', async () => {
    const head = await sharedRehearsals();
    await write(laptopA, `events/${head.id}`, { title: 'Rehearsal in hall A', scope: 'all' });
    await write(laptopB, `events/${idOf(laptopB, head.uid)}`, { title: 'Rehearsal in hall B', scope: 'all' });
    expect((await sync(laptopA)).conflicts).toEqual([]);

    const asked = await sync(laptopB);
    expect(asked.failures).toEqual([]);
    expect(asked.conflicts).toEqual([
      {
        kind: 'event',
        localId: idOf(laptopB, head.uid),
        remoteId: idOf(hub, head.uid),
        reason: 'both-changed',
        title: 'Rehearsal in hall B',
        diff: [
          {
            field: 'title',
            base: 'Choir rehearsal',
            local: 'Rehearsal in hall B',
            remote: 'Rehearsal in hall A',
          },
        ],
      },
    ]);
    // Nothing of the series changed meanwhile, here or there.
    expect(seriesOn(laptopB, head.uid).map((event) => event.title)).toEqual(
      Array(4).fill('Rehearsal in hall B'),
    );
    expect(seriesOn(hub, head.uid).map((event) => event.title)).toEqual(Array(4).fill('Rehearsal in hall A'));

    const decided = await sync(laptopB, 'local-wins');
    expect(decided.failures).toEqual([]);
    expect(decided.conflicts).toEqual([]);
    for (const report of await syncTwiceInTurn()) expect(report.conflicts).toEqual([]);
    for (const server of [hub, laptopA, laptopB]) {
      expect(seriesOn(server, head.uid).map((event) => [event.title, event.override])).toEqual(
        Array(4).fill(['Rehearsal in hall B', undefined]),
      );
    }
    await expectConverged();
  });

  it('the first date changed alone, then the rule shortened on the same laptop: the other dates keep the series’ title', async () => {
    const head = await sharedRehearsals();
    await write(laptopA, `events/${head.id}`, { title: 'Kick-off rehearsal' });
    await write(laptopA, `events/${head.id}`, {
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3'],
      scope: 'all',
    });

    for (const report of await syncTwiceInTurn()) expect(report.conflicts).toEqual([]);
    for (const server of [hub, laptopA, laptopB]) {
      expect(
        seriesOn(server, head.uid).map((event) => [event.title, event.startLocal, event.override]),
      ).toEqual([
        ['Kick-off rehearsal', '2027-03-09 19:30:00', true],
        ['Choir rehearsal', '2027-03-16 19:30:00', undefined],
        ['Choir rehearsal', '2027-03-23 19:30:00', undefined],
      ]);
    }
    await expectConverged();
  });

  it('A shortens the rule while B edits an occurrence that stays: both survive', async () => {
    const head = await sharedRehearsals();
    await write(laptopA, `events/${head.id}`, {
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3'],
      scope: 'all',
    });
    await write(laptopB, `events/${seriesOn(laptopB, head.uid)[1]!.id}`, { title: 'Sectional rehearsal' });

    for (const report of await syncTwiceInTurn()) expect(report.conflicts).toEqual([]);
    for (const server of [hub, laptopA, laptopB]) {
      const events = seriesOn(server, head.uid);
      expect(events.map((event) => [event.title, event.startLocal, event.override])).toEqual([
        ['Choir rehearsal', '2027-03-09 19:30:00', undefined],
        ['Sectional rehearsal', '2027-03-16 19:30:00', true],
        ['Choir rehearsal', '2027-03-23 19:30:00', undefined],
      ]);
      expect(events[0]!.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=TU']);
    }
    await expectConverged();
  });

  /** A shortens the rule to three dates while B changes the fourth on its own; A syncs first. */
  async function ruleRemovesAnEditedDate() {
    const head = await sharedRehearsals();
    const fourth = seriesOn(laptopB, head.uid)[3]!;
    await write(laptopA, `events/${head.id}`, {
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3'],
      scope: 'all',
    });
    await write(laptopB, `events/${fourth.id}`, { title: 'Last rehearsal, with the orchestra' });
    expect((await sync(laptopA)).conflicts).toEqual([]);

    // B: the date it changed is gone from the hub's series. A conflict for the policy, never silent; meanwhile
    // nothing of the series changes here (its rule would trash B's edit).
    const asked = await sync(laptopB);
    expect(asked.failures).toEqual([]);
    expect(asked.conflicts).toEqual([
      {
        kind: 'event',
        localId: fourth.id,
        remoteId: idOf(hub, fourth.uid),
        reason: 'remote-deleted',
        title: 'Last rehearsal, with the orchestra',
        diff: [
          {
            field: 'title',
            base: 'Choir rehearsal',
            local: 'Last rehearsal, with the orchestra',
            remote: null,
          },
        ],
      },
    ]);
    const onB = seriesOn(laptopB, head.uid);
    expect(onB).toHaveLength(4);
    expect(onB[0]!.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU']);
    expect(onB[3]).toMatchObject({ title: 'Last rehearsal, with the orchestra', override: true });
    return { head, fourth };
  }

  it('A’s rule removes the date B edited: a conflict; remote-wins takes the rule and puts B’s edit in the trash', async () => {
    const { head, fourth } = await ruleRemovesAnEditedDate();
    const decided = await sync(laptopB, 'remote-wins');
    expect(decided.failures).toEqual([]);
    expect(decided.conflicts).toEqual([]);
    for (const report of await syncTwiceInTurn()) expect(report.conflicts).toEqual([]);
    for (const server of [hub, laptopA, laptopB]) {
      expect(seriesOn(server, head.uid).map((event) => event.startLocal)).toEqual([
        '2027-03-09 19:30:00',
        '2027-03-16 19:30:00',
        '2027-03-23 19:30:00',
      ]);
    }
    // Restorable from B's trash, with B's edit.
    expect(laptopB.engine.store.events.get(fourth.id)).toMatchObject({
      status: 'trash',
      title: 'Last rehearsal, with the orchestra',
    });
    await expectConverged();
  });

  it('A’s rule removes the date B edited: local-wins keeps the date with B’s edit, and B’s rule, everywhere', async () => {
    const { head, fourth } = await ruleRemovesAnEditedDate();
    const decided = await sync(laptopB, 'local-wins');
    expect(decided.failures).toEqual([]);
    expect(decided.conflicts).toEqual([]);
    for (const report of await syncTwiceInTurn()) expect(report.conflicts).toEqual([]);
    for (const server of [hub, laptopA, laptopB]) {
      const events = seriesOn(server, head.uid);
      expect(events.map((event) => [event.title, event.startLocal])).toEqual([
        ['Choir rehearsal', '2027-03-09 19:30:00'],
        ['Choir rehearsal', '2027-03-16 19:30:00'],
        ['Choir rehearsal', '2027-03-23 19:30:00'],
        ['Last rehearsal, with the orchestra', '2027-03-30 19:30:00'],
      ]);
      expect(events[0]!.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU']);
      expect(events[3]).toMatchObject({ uid: fourth.uid, override: true });
    }
    await expectConverged();
  });

  it('A deletes one date while B edits the whole series: the date stays deleted everywhere, the rest has B’s edit', async () => {
    const head = await sharedRehearsals();
    const third = seriesOn(laptopA, head.uid)[2]!;
    const removed = await laptopA.api(`events/${third.id}?scope=this`, {
      method: 'DELETE',
      auth: laptopA.admin,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await write(laptopB, `events/${idOf(laptopB, head.uid)}`, {
      title: 'Choir rehearsal (crypt)',
      scope: 'all',
    });

    for (const report of await syncTwiceInTurn()) expect(report.conflicts).toEqual([]);
    for (const server of [hub, laptopA, laptopB]) {
      const events = seriesOn(server, head.uid);
      expect(events.map((event) => [event.title, event.startLocal, event.override])).toEqual([
        ['Choir rehearsal (crypt)', '2027-03-09 19:30:00', undefined],
        ['Choir rehearsal (crypt)', '2027-03-16 19:30:00', undefined],
        ['Choir rehearsal (crypt)', '2027-03-30 19:30:00', undefined],
      ]);
      expect(events[0]!.recurrence).toEqual([
        'RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU',
        'EXDATE;TZID=Europe/Rome:20270323T193000',
      ]);
      expect(exportByUid(server.engine.store).events[third.uid]).toEqual({ status: 'trash' });
    }
    await expectConverged();
  });
});
