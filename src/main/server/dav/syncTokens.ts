import type { CalendarStore } from '../../store/store';
import type { Caller } from '../../core/capabilities';
import { CursorExpired, readChanges } from '../../core/changes';
import { keptChangedSince, keptCounter } from '../../dav/keptProperties';

/**
 * The calendar's sync token (RFC 6578) and CTag for one user: the change feed's position (CONTRACT §7, the same
 * cursor `calendar-desk/v1/changes` gives), the user's role (which decides what they see) and the counter of
 * what their apps added (keptProperties.ts), as one URI.
 */
const PREFIX = 'urn:calendar-desk:sync:';

export function syncTokenOf(store: CalendarStore, caller: Caller): string {
  const feed = store.changeFeed;
  return `${PREFIX}${caller.role}:${feed.id}:${feed.latest()}:${keptCounter(store, caller)}`;
}

/** The token cannot be continued from: the client must sync again from nothing (valid-sync-token). */
export class SyncTokenExpired extends Error {}

export interface ChangedSince {
  /** Uids of the events (any of a series) changed or deleted since the token. */
  eventUids: Set<string>;
  /** Ids of events whose shown venue, organizers or terms changed (their resources change with them). */
  linkedChanged: { venues: Set<number>; organizers: Set<number>; terms: Set<number> };
  /** Uids whose kept lines changed. */
  keptUids: string[];
}

/** What changed since `token`, or SyncTokenExpired. */
export function changedSince(store: CalendarStore, caller: Caller, token: string): ChangedSince {
  if (!token.startsWith(PREFIX))
    throw new SyncTokenExpired('This sync token was not given by Calendar Desk.');
  const [role, feedId, seq, kept] = token.slice(PREFIX.length).split(':');
  if (role !== caller.role)
    throw new SyncTokenExpired(
      'Your role changed since this sync token was given: what you may see changed.',
    );
  if (!/^\d+$/.test(seq ?? '') || !/^\d+$/.test(kept ?? ''))
    throw new SyncTokenExpired('This sync token is not one Calendar Desk gives.');
  let changes;
  try {
    changes = readChanges(store, `${feedId}:${seq}`, Number.MAX_SAFE_INTEGER).changes;
  } catch (error) {
    if (error instanceof CursorExpired)
      throw new SyncTokenExpired(
        'This sync token is too old, or from another calendar (or one put back from a backup since).',
      );
    throw error;
  }
  if (Number(kept) > keptCounter(store, caller))
    throw new SyncTokenExpired('This sync token is ahead of this calendar.');
  const result: ChangedSince = {
    eventUids: new Set(),
    linkedChanged: { venues: new Set(), organizers: new Set(), terms: new Set() },
    keptUids: keptChangedSince(store, caller, Number(kept)),
  };
  for (const change of changes) {
    if (change.action === 'delete') {
      if (change.kind === 'event') result.eventUids.add(change.tombstone.uid);
      continue;
    }
    const { record } = change;
    if (change.kind === 'event' && 'parentId' in record) {
      const head = record.parentId ? store.events.get(record.parentId) : undefined;
      result.eventUids.add((head ?? record).uid);
    } else if (change.kind === 'venue') result.linkedChanged.venues.add(record.id);
    else if (change.kind === 'organizer') result.linkedChanged.organizers.add(record.id);
    else result.linkedChanged.terms.add(record.id);
  }
  return result;
}
