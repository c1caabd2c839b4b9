import type { Language } from '../../shared/enums';
import type { StoredEvent } from '../store/schema';
import type { Transaction } from '../store/store';
import { canChangePost, canEditPosts } from './capabilities';
import {
  createSingleEvent,
  type EventIdentity,
  type EventInput,
  type EventWriteContext,
} from './eventRecord';
import { changeInSeries, guardedTransaction, startSeries, trashInSeries } from './recurrence/series';
import { givenUid } from './uids';
import { refuseUnless, WriteRefused, type RecordWriteCall, type WriteCall } from './writes';
import { withinWriteBudget } from './writeBudget';
import type { SeriesScope } from './eventRecord';

/** Creates an event from validated create arguments; with repeat rules, the head of a series with its occurrences. */
export function createEvent(
  input: EventInput,
  context: EventWriteContext,
  identity: EventIdentity = {},
): StoredEvent {
  const event = createSingleEvent(input, context, identity);
  // With repeat rules, the event is the head of a series: its occurrences are made in the same change.
  return input.recurrence?.length ? startSeries(event, input.recurrence, context) : event;
}

/*
 * The event writes as one store change each (the API and the sync's pull call these). `createEvent` above
 * and `updateEvent` (eventRecord.ts) are their steps inside a change, for writes that combine several (an import).
 */

/** Creates an event for the caller (who may create events), in the language of the request. */
export async function addEvent(
  input: EventInput,
  call: WriteCall & { language: Language },
): Promise<StoredEvent> {
  refuseUnless(canEditPosts(call.caller), call.caller);
  const least = { creates: 1, occurrences: input.recurrence?.length ? 1 : 0 };
  return withinWriteBudget(
    call,
    (tx) => {
      const uid = givenUid(input.uid, call.caller, call.store.events.values());
      return createEvent(input, { ...call, tx }, uid ? { uid } : {});
    },
    least,
  );
}

/**
 * Creates several events for the caller in one store change (a sync's page of imported events: one durable
 * write for the page, not one per event). `also` runs in the same change with the events made, in order (the
 * sync writes their links there). Any refusal takes the whole change back: nothing of it is written.
 */
export async function addEvents<T>(
  inputs: EventInput[],
  call: WriteCall & { language: Language },
  also: (tx: Transaction, created: StoredEvent[]) => T,
): Promise<{ created: StoredEvent[]; also: T }> {
  refuseUnless(canEditPosts(call.caller), call.caller);
  const least = {
    creates: inputs.length,
    occurrences: inputs.filter((input) => input.recurrence?.length).length,
  };
  return withinWriteBudget(
    call,
    (tx) => {
      const created = inputs.map((input) => {
        const uid = givenUid(input.uid, call.caller, call.store.events.values());
        return createEvent(input, { ...call, tx }, uid ? { uid } : {});
      });
      return { created, also: also(tx, created) };
    },
    least,
  );
}

/**
 * Patches the event `id` (which exists) for a caller who may edit it; in a series, with `input.scope` (default
 * `this`), the caller must be allowed to edit every event the scope changes (else nothing changes: 403).
 */
export async function changeEvent(
  id: number,
  input: EventInput,
  call: RecordWriteCall<StoredEvent> & Pick<EventWriteContext, 'organizersAsGiven'>,
): Promise<StoredEvent> {
  const { store } = call;
  const current = store.events.get(id)!;
  refuseUnless(canChangePost(call.caller, current, 'edit'), call.caller);
  call.beforeWrite?.(current);
  // A change may add events too (a series' new dates, inline venues and organizers): those are counted.
  const nothingYet = { creates: 0, occurrences: 0 };
  return withinWriteBudget(
    call,
    (tx) => {
      const context = {
        tx,
        store,
        caller: call.caller,
        now: call.now,
        language: current.language,
        organizersAsGiven: call.organizersAsGiven,
      };
      return changeInSeries(current, input, input.scope ?? 'this', guardedTransaction(context, 'edit'));
    },
    nothingYet,
  );
}

/**
 * Moves the event `id` (which exists) to the trash; one already there is refused (410). In a series, `scope`
 * (default `this`) says which of its events go too; the caller must be allowed to delete each of them.
 */
export async function trashEvent(
  id: number,
  call: RecordWriteCall<StoredEvent> & { scope?: SeriesScope },
): Promise<StoredEvent> {
  const { store } = call;
  const current = store.events.get(id)!;
  refuseUnless(canChangePost(call.caller, current, 'delete'), call.caller);
  if (current.status === 'trash') {
    throw new WriteRefused(410, 'event-is-in-trash', 'The event is already trashed');
  }
  call.beforeWrite?.(current);
  return store.mutate((tx) => {
    const context = { tx, store, caller: call.caller, now: call.now, language: current.language };
    return trashInSeries(current, call.scope ?? 'this', guardedTransaction(context, 'delete'));
  });
}
