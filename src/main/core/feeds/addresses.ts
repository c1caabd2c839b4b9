import type { CalendarStore } from '../../store/store';
import { htmlToText } from '../html';
import type { FeedState } from './secret';
import { feedPastMonths } from './select';

/** One feed's addresses: `http://127.0.0.1:PORT/feeds/<secret>/…ics` and the same as `webcal://`. */
export interface FeedAddress {
  http: string;
  webcal: string;
}

export interface NamedFeed extends FeedAddress {
  id: number;
  name: string;
  slug: string;
}

export interface FeedAddresses {
  calendar: FeedAddress;
  categories: NamedFeed[];
  venues: NamedFeed[];
}

/** The paths under `/feeds/<secret>/` (the route in server/routes/feeds.ts parses the same shapes). */
export const FEED_PATHS = {
  calendar: 'calendar.ics',
  category: (slug: string) => `category/${encodeURIComponent(slug)}.ics`,
  venue: (slug: string) => `venue/${encodeURIComponent(slug)}.ics`,
};

function address(origin: string, secret: string, path: string): FeedAddress {
  const http = `${origin}/feeds/${secret}/${path}`;
  // webcal:// is the same address with the scheme calendar apps open as "subscribe".
  return { http, webcal: http.replace(/^https?:/, 'webcal:') };
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** Every feed of the calendar: the whole calendar, each category and each published venue. */
export function feedAddresses(store: CalendarStore, origin: string, secret: string): FeedAddresses {
  const categories = [...store.terms.values()]
    .filter((term) => term.taxonomy === 'category')
    .map((term) => ({ id: term.id, name: htmlToText(term.name), slug: term.slug }));
  const venues = [...store.venues.values()]
    .filter((venue) => venue.status === 'publish' && venue.password === '')
    .map((venue) => ({ id: venue.id, name: htmlToText(venue.name), slug: venue.slug }));
  return {
    calendar: address(origin, secret, FEED_PATHS.calendar),
    categories: categories
      .sort(byName)
      .map((term) => ({ ...term, ...address(origin, secret, FEED_PATHS.category(term.slug)) })),
    venues: venues
      .sort(byName)
      .map((venue) => ({ ...venue, ...address(origin, secret, FEED_PATHS.venue(venue.slug)) })),
  };
}

/** The feeds as the admin API and `calendar-desk feeds --json` show them. */
export interface FeedsOverview {
  /** false: revoked, no address answers until new ones are made. */
  enabled: boolean;
  changed_utc: string | null;
  past_months: number;
  calendar: FeedAddress | null;
  categories: NamedFeed[];
  venues: NamedFeed[];
  /**
   * Set when this start's address is not the last one's (subscribed apps need the new addresses), or when the
   * feeds are off because this start found feeds.json damaged (until new addresses are made).
   */
  address_notice: string | null;
}

/** `secret`: the folder's FeedSecret, or the state one change of it left (what the answer to that change shows). */
export function feedsOverview(
  store: CalendarStore,
  secret: FeedState | undefined,
  origin: string,
  addressNotice: string | null = null,
): FeedsOverview {
  const current = secret?.current ?? null;
  return {
    enabled: current !== null,
    changed_utc: secret?.changedUtc || null,
    past_months: feedPastMonths(store.settings),
    ...(current !== null
      ? feedAddresses(store, origin, current)
      : { calendar: null, categories: [], venues: [] }),
    address_notice: addressNotice,
  };
}
