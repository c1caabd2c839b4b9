import type { CalendarStore, Transaction } from '../store/store';
import type { StoredEvent, StoredOrganizer, StoredVenue } from '../store/schema';
import type { MaybeCaller } from './capabilities';
import { eventsLinkedTo } from './eventLinks';
import { nowUtc, trashedSlug } from './posts';
import { refuseUnless, WriteRefused, type WriteCall } from './writes';

/*
 * Merging two venues (or two organizers) entered twice into one (issue 15 item 3): every event linked to the
 * merged record is linked to the kept one, and the merged record goes to the trash, in one store change (one
 * durable write). To the trash rather than deleted for good, as every deletion of a venue or organizer: it
 * can be looked at (and restored, empty) from the Trash, and a sync sends it as one deletion, after the
 * events' edits that link them to the kept record.
 */

type LinkedPost = StoredVenue | StoredOrganizer;
type LinkedKind = LinkedPost['kind'];

export interface MergeResult {
  kept: LinkedPost;
  merged: LinkedPost;
  /** The events now linked to the kept record instead (every status, series occurrences included), by id. */
  movedEventIds: number[];
}

const postOf = (store: CalendarStore, kind: LinkedKind, id: number): LinkedPost | undefined =>
  kind === 'venue' ? store.venues.get(id) : store.organizers.get(id);

/** Why `into` cannot take the records of `merged` (null when it can): the API answers it on `into`. */
function mergeTargetProblem(
  store: CalendarStore,
  kind: LinkedKind,
  mergedId: number,
  intoId: number,
): string | null {
  const kept = postOf(store, kind, intoId);
  if (intoId === mergedId)
    return `A ${kind} cannot be merged into itself: choose the other ${kind}, the one to keep.`;
  if (!kept) return `There is no ${kind} with id ${intoId}: choose a ${kind} that exists.`;
  if (kept.status === 'trash')
    return `The ${kind} "${kept.name}" (id ${intoId}) is in the trash: restore it first, or keep another ${kind}.`;
  return null;
}

const isAdministrator = (caller: MaybeCaller) => caller?.role === 'administrator';

/** An event linked to `keptId` instead of `mergedId`: organizers keep their order and appear once. */
function relinked(event: StoredEvent, kind: LinkedKind, mergedId: number, keptId: number): StoredEvent {
  if (kind === 'venue') return { ...event, venueId: keptId };
  const organizerIds = [...new Set(event.organizerIds.map((id) => (id === mergedId ? keptId : id)))];
  return { ...event, organizerIds };
}

/** Links every event of `merged` to `kept` and moves `merged` to the trash, inside one store change. */
function mergeIn(tx: Transaction, store: CalendarStore, merged: LinkedPost, kept: LinkedPost, now: Date) {
  const modifiedUtc = nowUtc(now);
  const movedEventIds = eventsLinkedTo(store, merged).sort((a, b) => a - b);
  for (const id of movedEventIds) {
    const event = store.events.get(id)!;
    // A new revision: the sync sends each moved event as an edit (its venue or organizers changed).
    tx.putEvent({
      ...relinked(event, merged.kind, merged.id, kept.id),
      modifiedUtc,
      revision: event.revision + 1,
    });
  }
  const trashed: LinkedPost =
    merged.status === 'trash'
      ? merged
      : {
          ...merged,
          status: 'trash',
          slug: trashedSlug(store, merged),
          modifiedUtc,
          revision: merged.revision + 1,
        };
  if (trashed !== merged) {
    if (trashed.kind === 'venue') tx.putVenue(trashed);
    else tx.putOrganizer(trashed);
  }
  return { kept, merged: trashed, movedEventIds };
}

/**
 * Merges the venue or organizer `mergedId` (which exists) into `intoId`: administrators only (it edits events
 * of every author). Refused with a 400 on `into` when {@link mergeTargetProblem} finds one. A merged record
 * already in the trash stays there; its events move all the same.
 */
export async function mergeLinkedPosts(
  kind: LinkedKind,
  mergedId: number,
  intoId: number,
  call: WriteCall,
): Promise<MergeResult> {
  const { store, caller, now } = call;
  refuseUnless(isAdministrator(caller), caller);
  const problem = mergeTargetProblem(store, kind, mergedId, intoId);
  if (problem) {
    throw new WriteRefused(400, 'rest_invalid_param', 'Invalid parameter(s): into', {
      params: { into: problem },
      details: [],
    });
  }
  const merged = postOf(store, kind, mergedId)!;
  const kept = postOf(store, kind, intoId)!;
  return store.mutate((tx) => mergeIn(tx, store, merged, kept, now));
}
