import { z } from 'zod';
import type { CalendarStore } from '../store/store';
import type { StoredEvent } from '../store/schema';
import type { EventInput, EventWriteContext } from '../core/eventRecord';
import { givenStatus } from '../core/writes';
import { guardedSeriesWrite, trashingInSeries } from '../core/recurrence/series';

/*
 * What an import address brought here, so that a refresh can move to the trash what left it (issue 15 item
 * 2). Kept by the UID of its VEVENTs in the store's sync state (`import-source:<id>`), written in the same store
 * change as the refresh's events: the two cannot disagree after a crash. A data file without it is valid (the
 * address brought nothing yet). Each UID is
 *   'in'   — in the address at the last refresh;
 *   'left' — it left the address, and a refresh moved its event to the trash here.
 * The volunteer's decisions here win over the address: an event of the address moved to the trash (or deleted)
 * here stays so on every refresh, changed at the address or not; restoring it from the trash makes it follow
 * the address again. An event a refresh trashed because it left comes back when it is in the address again.
 */
const broughtSchema = z.record(z.string(), z.enum(['in', 'left']));
type BroughtState = 'in' | 'left';

const stateKey = (sourceId: string) => `import-source:${sourceId}`;

/** The UIDs the address `sourceId` brought, with their state (empty when it brought nothing yet). */
export function broughtBy(store: CalendarStore, sourceId: string): Map<string, BroughtState> {
  const parsed = broughtSchema.safeParse(store.syncState(stateKey(sourceId)) ?? {});
  return new Map(Object.entries(parsed.success ? parsed.data : {}));
}

/** One refresh of an import address, inside the import's store change. */
export class SourceFollow {
  private readonly before: Map<string, BroughtState>;
  private readonly after: Map<string, BroughtState>;
  private readonly seen = new Set<string>();

  constructor(
    store: CalendarStore,
    readonly sourceId: string,
  ) {
    this.before = broughtBy(store, sourceId);
    this.after = new Map(this.before);
  }

  /**
   * Why the address's VEVENT of `uid` is not imported (null: it is), `existing` being the event here with that
   * UID (`repeated`: an earlier VEVENT of the address had it): a VEVENT without UID cannot be followed; one the
   * volunteer trashed or deleted here stays so.
   */
  skipReason(uid: string, existing: StoredEvent | undefined, repeated: boolean): string | null {
    if (repeated) return 'another event of the address has the same UID: only the first one is imported';
    if (!uid)
      return 'it has no UID, and the events of an address are followed by their UID: import it from a file instead';
    this.seen.add(uid);
    const state = this.before.get(uid);
    if (existing?.status === 'trash' && state !== 'left') {
      this.after.set(uid, 'in');
      return 'it is in the trash here: restore it to follow this address again';
    }
    if (!existing && state === 'in')
      return 'it was deleted here for good; it comes back only if the address is removed and added again';
    return null;
  }

  /**
   * The input of a VEVENT to import: an event that a refresh trashed because it left the address, and that
   * is back in it, leaves the trash (with the status a new event of the import gets).
   */
  inputFor(uid: string, existing: StoredEvent | undefined, input: EventInput, context: EventWriteContext) {
    this.after.set(uid, 'in');
    if (existing?.status === 'trash' && this.before.get(uid) === 'left')
      return { ...input, status: givenStatus(context.caller, undefined) };
    return input;
  }

  /**
   * After the VEVENTs: every event the address brought that is no longer in it goes to the trash (a series
   * with all its dates); one already in the trash or deleted here is forgotten. Past the context's
   * `seriesDeadline` it pauses (yields) between two events and goes on with the context of the next store
   * change (issue 26: some 48,000 events held the server ~12 s in one change); it answers the events trashed
   * and the context it ended in, where {@link save} then writes.
   */
  *trashWhatLeft(
    context: EventWriteContext,
    byUid: Map<string, StoredEvent>,
  ): Generator<void, { trashed: StoredEvent[]; context: EventWriteContext }, EventWriteContext> {
    const trashed: StoredEvent[] = [];
    for (const [uid, state] of this.before) {
      if (this.seen.has(uid) || state === 'left') continue;
      if (context.seriesDeadline !== undefined && performance.now() > context.seriesDeadline) context = yield;
      // As it is now: a user's edit between two store changes is not written over with an old copy.
      const found = byUid.get(uid);
      const event = found && context.store.events.get(found.id);
      if (!event || event.status === 'trash') {
        this.after.delete(uid);
        continue;
      }
      // A whole series may pause between two of its events (see trashingInSeries).
      const done = yield* guardedSeriesWrite(context, 'delete', (guarded) =>
        trashingInSeries(event, 'all', guarded),
      );
      trashed.push(done.value);
      context = done.context;
      this.after.set(uid, 'left');
    }
    return { trashed, context };
  }

  /** Whether what the address brought differs from before this refresh (then {@link save} it). */
  get changed(): boolean {
    if (this.after.size !== this.before.size) return true;
    for (const [uid, state] of this.after) if (this.before.get(uid) !== state) return true;
    return false;
  }

  save(context: Pick<EventWriteContext, 'tx'>): void {
    context.tx.setSyncState(stateKey(this.sourceId), Object.fromEntries(this.after));
  }
}

/**
 * How many events (a series with its dates) a refresh of `sourceId` whose file holds the UIDs `inFile` would
 * move to the trash, `byUid` being the events here by UID: read before the import, to choose whether it is
 * applied in slices.
 */
export function leavingCount(
  store: CalendarStore,
  sourceId: string,
  inFile: Set<string>,
  byUid: Map<string, StoredEvent>,
): number {
  let count = 0;
  for (const [uid, state] of broughtBy(store, sourceId)) {
    if (state === 'left' || inFile.has(uid)) continue;
    const event = byUid.get(uid);
    if (!event || event.status === 'trash') continue;
    count += 1 + (store.eventIndex.byParent.get(event.id)?.size ?? 0);
  }
  return count;
}

/** Forgets what a removed address brought (its events stay). */
export function forgetSource(store: CalendarStore, sourceId: string): Promise<unknown> | undefined {
  if (store.syncState(stateKey(sourceId)) === undefined) return undefined;
  return store.mutate((tx) => tx.setSyncState(stateKey(sourceId), null));
}
