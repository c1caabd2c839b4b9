import { Memory } from 'lowdb';
import { describe, expect, it } from 'vitest';
import { CalendarStore } from '../../../src/main/store/store';
import type { DataFile, Settings, StoredEvent } from '../../../src/main/store/schema';
import type { Caller } from '../../../src/main/core/capabilities';
import type { EventWriteContext } from '../../../src/main/core/eventRecord';
import { createEvent } from '../../../src/main/core/events';
import {
  changeInSeries,
  changingInSeries,
  seriesOccurrences,
  trashingInSeries,
  trashInSeries,
  type SeriesWrite,
} from '../../../src/main/core/recurrence/series';

/*
 * Issue 26 item 3: a large import changes or trashes a whole series a few events per store change, the server
 * answering between two. What must hold: the end is what one change of it all gives; readers between two store
 * changes see the series part-way, its head last; a series left half-done (a crash between two store changes)
 * is finished by the same change made again, as the next refresh of the address makes it.
 */

const settings: Settings = {
  siteName: 'Test',
  siteDescription: '',
  timezone: 'Europe/Rome',
  postsPerPage: 10,
};
const admin: Caller = { userId: 1, login: 'admin', role: 'administrator' };
const now = new Date('2026-11-28T10:00:00Z');

const memoryStore = () =>
  CalendarStore.open({
    dataDir: '/nonexistent/calendar-desk',
    initialSettings: settings,
    lock: false,
    adapter: new Memory<DataFile>(),
  });

/** A context of one store change; `deadline` past: a series write pauses before each of its events. */
const contextOf = (
  store: CalendarStore,
  tx: EventWriteContext['tx'],
  deadline?: number,
): EventWriteContext => ({
  tx,
  store,
  caller: admin,
  now,
  language: 'en',
  ...(deadline === undefined ? {} : { seriesDeadline: deadline }),
});

/** A weekly rehearsal, every Tuesday for two years (the horizon): its head and some 100 occurrences. */
async function rehearsals(store: CalendarStore): Promise<StoredEvent> {
  return store.mutate((tx) =>
    createEvent(
      {
        title: 'Rehearsal',
        start_date: '2026-12-01 19:30:00',
        end_date: '2026-12-01 21:30:00',
        timezone: 'Europe/Rome',
        status: 'publish',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU'],
      },
      contextOf(store, tx),
    ),
  );
}

const seriesOf = (store: CalendarStore, head: StoredEvent) => [
  store.events.get(head.id)!,
  ...seriesOccurrences(store, store.events.get(head.id)!),
];

/**
 * Runs `write` one pause per store change (a deadline always past), `steps` store changes at most (all when
 * omitted); `between` sees the store after each change but the last.
 */
async function inPieces<T>(
  store: CalendarStore,
  start: (context: EventWriteContext) => SeriesWrite<T>,
  { steps = Infinity, between }: { steps?: number; between?: () => void } = {},
): Promise<{ done: boolean; changes: number }> {
  let write: SeriesWrite<T> | undefined;
  let changes = 0;
  for (let done = false; changes < steps;) {
    done = await store.mutate((tx) => {
      const context = contextOf(store, tx, 0);
      write ??= start(context);
      return write.next(context).done === true;
    });
    changes++;
    if (done) return { done, changes };
    between?.();
  }
  return { done: false, changes };
}

describe('a whole series changed a piece at a time (an import)', () => {
  it('ends as one change of it all does, the head changed last, readers seeing it part-way', async () => {
    const whole = await memoryStore();
    const pieces = await memoryStore();
    const [wholeHead, piecesHead] = [await rehearsals(whole), await rehearsals(pieces)];
    const count = seriesOf(pieces, piecesHead).length;
    expect(count).toBeGreaterThan(100);

    await whole.mutate((tx) =>
      changeInSeries(wholeHead, { title: 'Choir rehearsal' }, 'all', contextOf(whole, tx)),
    );
    const seen: Array<{ renamed: number; headRenamed: boolean }> = [];
    const { changes } = await inPieces(
      pieces,
      (context) => changingInSeries(piecesHead, { title: 'Choir rehearsal' }, 'all', context),
      {
        between: () => {
          const events = seriesOf(pieces, piecesHead);
          seen.push({
            renamed: events.filter((event) => event.title === 'Choir rehearsal').length,
            headRenamed: events[0].title === 'Choir rehearsal',
          });
        },
      },
    );

    expect(changes).toBeGreaterThan(100);
    // Part-way between two store changes, and the head (where the series lives) never before the end.
    expect(seen.some((one) => one.renamed > 0 && one.renamed < count)).toBe(true);
    expect(seen.every((one) => !one.headRenamed)).toBe(true);
    const shape = (store: CalendarStore, head: StoredEvent) =>
      seriesOf(store, head).map(({ title, startLocal, recurrenceId, revision, status, parentId }) => ({
        title,
        startLocal,
        recurrenceId,
        revision,
        status,
        parentId,
      }));
    expect(shape(pieces, piecesHead)).toEqual(shape(whole, wholeHead));
  });

  it('a series left half-changed is finished by the same change made again', async () => {
    const store = await memoryStore();
    const head = await rehearsals(store);
    const { done } = await inPieces(
      store,
      (context) =>
        changingInSeries(head, { title: 'Choir rehearsal', description: 'Bring scores' }, 'all', context),
      { steps: 40 },
    );
    expect(done).toBe(false);
    const halfway = seriesOf(store, head);
    expect(halfway.filter((event) => event.title === 'Choir rehearsal').length).toBeGreaterThan(10);
    expect(halfway[0].title).toBe('Rehearsal');

    // The next refresh: the file's VEVENT against the series as the crash left it.
    await store.mutate((tx) =>
      changeInSeries(
        store.events.get(head.id)!,
        { title: 'Choir rehearsal', description: 'Bring scores' },
        'all',
        contextOf(store, tx),
      ),
    );
    const after = seriesOf(store, head);
    expect(
      after.every((event) => event.title === 'Choir rehearsal' && event.description === 'Bring scores'),
    ).toBe(true);
  });

  it("keeps an edit of the head made between two store changes, with the change's fields on top", async () => {
    const store = await memoryStore();
    const head = await rehearsals(store);
    let edited = false;
    await inPieces(store, (context) => changingInSeries(head, { title: 'Choir rehearsal' }, 'all', context), {
      between: () => {
        if (edited) return;
        edited = true;
        void store.mutate((tx) =>
          changeInSeries(
            store.events.get(head.id)!,
            { description: 'Bring scores' },
            'this',
            contextOf(store, tx),
          ),
        );
      },
    });
    const after = store.events.get(head.id)!;
    expect(after.title).toBe('Choir rehearsal');
    expect(after.description).toBe('Bring scores');
    expect(seriesOf(store, head).every((event) => event.title === 'Choir rehearsal')).toBe(true);
  });

  it('a change that moves the dates is made whole, even past the deadline', async () => {
    const store = await memoryStore();
    const head = await rehearsals(store);
    const { changes } = await inPieces(store, (context) =>
      changingInSeries(
        head,
        { start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 22:00:00' },
        'all',
        context,
      ),
    );
    expect(changes).toBe(1);
    expect(seriesOf(store, head).every((event) => event.startLocal.endsWith('20:00:00'))).toBe(true);
  });
});

describe('a whole series trashed a piece at a time (a refresh where it left the address)', () => {
  it('trashes every event, the head last, and a half-trashed series is trashed whole again', async () => {
    const store = await memoryStore();
    const head = await rehearsals(store);
    const count = seriesOf(store, head).length;
    const seen: number[] = [];
    const { done } = await inPieces(store, (context) => trashingInSeries(head, 'all', context), {
      steps: 30,
      between: () => {
        expect(store.events.get(head.id)!.status).toBe('publish');
        seen.push(seriesOf(store, head).filter((event) => event.status === 'trash').length);
      },
    });
    expect(done).toBe(false);
    expect(seen.at(-1)).toBeGreaterThan(10);
    expect(seen.at(-1)).toBeLessThan(count);

    await store.mutate((tx) => trashInSeries(store.events.get(head.id)!, 'all', contextOf(store, tx)));
    expect(seriesOf(store, head).every((event) => event.status === 'trash')).toBe(true);
  });
});
