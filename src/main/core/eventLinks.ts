import type { CalendarStore, Transaction } from '../store/store';
import type { StoredEvent, StoredPost } from '../store/schema';

/*
 * An event keeps its links to a venue or organizer that goes to the trash. While it is there the event reads
 * as the original shows it after a trash (no venue, not that organizer: REFERENCE §5.7), and a restore
 * brings the link back (the original cuts the link for good, so an undo cannot restore it).
 */

const shown = (post: StoredPost | undefined) => post !== undefined && post.status !== 'trash';

/** The venue an event shows: its venue unless that is in the trash (or gone); 0 for none. */
export function shownVenueId(store: CalendarStore, event: StoredEvent): number {
  return event.venueId && shown(store.venues.get(event.venueId)) ? event.venueId : 0;
}

/** The organizers an event shows: those not in the trash (nor gone), in the event's order. */
export function shownOrganizerIds(store: CalendarStore, event: StoredEvent): number[] {
  return event.organizerIds.every((id) => shown(store.organizers.get(id)))
    ? event.organizerIds
    : event.organizerIds.filter((id) => shown(store.organizers.get(id)));
}

/** The events linked to a venue or organizer (trashed events included). */
export function eventsLinkedTo(store: CalendarStore, post: Pick<StoredPost, 'kind' | 'id'>): number[] {
  const index = post.kind === 'venue' ? store.eventIndex.byVenue : store.eventIndex.byOrganizer;
  return [...(index.get(post.id) ?? [])];
}

/**
 * A venue or organizer entering or leaving the trash changes what its events show: they get a new revision
 * and modified time, so their ETag changes and a sync sends them (with or without it) to the remote.
 */
export function touchLinkedEvents(
  tx: Transaction,
  store: CalendarStore,
  post: Pick<StoredPost, 'kind' | 'id'>,
  modifiedUtc: string,
): void {
  for (const eventId of eventsLinkedTo(store, post)) {
    const event = store.events.get(eventId)!;
    tx.putEvent({ ...event, modifiedUtc, revision: event.revision + 1 });
  }
}
