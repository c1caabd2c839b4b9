import { DateTime } from 'luxon';
import type { CalendarStore } from '../../store/store';
import type { Settings, StoredEvent } from '../../store/schema';
import { categoryDescendants } from '../terms';
import { shownVenueId } from '../eventLinks';

/** Months of past events a feed keeps when the site setting was never changed. */
export const DEFAULT_FEED_PAST_MONTHS = 3;

export const feedPastMonths = (settings: Settings): number =>
  settings.feedPastMonths ?? DEFAULT_FEED_PAST_MONTHS;

/** Which events a feed holds: the whole calendar, one category (with its sub-categories) or one venue. */
export type FeedScope =
  { kind: 'calendar' } | { kind: 'category'; categoryId: number } | { kind: 'venue'; venueId: number };

/**
 * What a subscriber may see: published events only (no drafts, pending, private or trashed ones), none
 * with a password (its content is protected), and none hidden from listings — the website's own list and
 * feed leave those out too, so a subscriber sees what a visitor of the site sees.
 */
export function isFeedPublic(event: StoredEvent): boolean {
  return event.status === 'publish' && event.password === '' && !event.hideFromListings;
}

/**
 * The first UTC instant a feed still shows events ending at or after (`Y-m-d H:i:s`): the configured months
 * before the start of today (UTC), so the feed's content, and its ETag, change at most once a day by themselves.
 */
export function feedWindowStartUtc(settings: Settings, now: Date): string {
  return DateTime.fromJSDate(now, { zone: 'utc' })
    .startOf('day')
    .minus({ months: feedPastMonths(settings) })
    .toFormat('yyyy-LL-dd HH:mm:ss');
}

/**
 * The events of a feed, soonest first: every future one (no cap, unlike the original's 30) and the past ones
 * ending at or after `since` (see {@link feedWindowStartUtc}).
 */
export function feedEvents(store: CalendarStore, scope: FeedScope, since: string): StoredEvent[] {
  const includes = feedIncludes(store, scope);
  const chosen: StoredEvent[] = [];
  for (const event of store.events.values()) if (event.endUtc >= since && includes(event)) chosen.push(event);
  return chosen.sort((a, b) => a.startUtc.localeCompare(b.startUtc) || a.id - b.id);
}

/**
 * Whether an event belongs in the feed of `scope`: public and in its calendar, category or venue. A series is
 * written with the dates of its events that do not belong removed from its rule.
 */
export function feedIncludes(store: CalendarStore, scope: FeedScope): (event: StoredEvent) => boolean {
  const inScope = scopeTest(store, scope);
  return (event) => isFeedPublic(event) && inScope(event);
}

function scopeTest(store: CalendarStore, scope: FeedScope): (event: StoredEvent) => boolean {
  if (scope.kind === 'calendar') return () => true;
  if (scope.kind === 'venue') return (event) => shownVenueId(store, event) === scope.venueId;
  // A category's page on the site lists its sub-categories' events as well.
  const ids = new Set([scope.categoryId, ...categoryDescendants(store, scope.categoryId)]);
  return (event) => event.categoryIds.some((id) => ids.has(id));
}
