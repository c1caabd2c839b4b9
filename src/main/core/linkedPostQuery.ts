import type { PostStatus } from '../../shared/enums';
import type { CalendarStore } from '../store/store';
import type { StoredEvent, StoredOrganizer, StoredVenue } from '../store/schema';
import { shownOrganizerIds, shownVenueId } from './eventLinks';
import { nowUtc } from './posts';

type LinkedPost = StoredVenue | StoredOrganizer;
type LinkedKind = LinkedPost['kind'];

/** What a venue or organizer archive asks for (REFERENCE §4.7), its arguments already validated. */
export interface LinkedPostQuery {
  statuses: ReadonlySet<PostStatus>;
  /** Any one text field must contain every fragment of it; trashed posts never match. */
  search?: string;
  /** Only the venue or organizers this event (which exists) shows. */
  eventId?: number;
  /** Only posts with (true) or without (false) an event that is neither a draft nor pending. */
  hasEvents?: boolean;
  /** Only posts with an event of the archive's statuses that has not started yet. */
  onlyWithUpcoming?: boolean;
  language?: string;
  now: Date;
}

/** The store's collection of one kind. */
interface Posts {
  readonly size: number;
  get(id: number): LinkedPost | undefined;
  values(): IterableIterator<LinkedPost>;
}

const postsOf = (store: CalendarStore, kind: LinkedKind): Posts =>
  kind === 'venue' ? store.venues : store.organizers;

/** Events linking to a post of the kind. */
const linkedEvents = (store: CalendarStore, kind: LinkedKind, id: number) =>
  (kind === 'venue' ? store.eventIndex.byVenue : store.eventIndex.byOrganizer).get(id);

/** The text fields a search looks in. */
function searchFields(post: LinkedPost): string[] {
  if (post.kind === 'organizer') {
    return [post.name, post.description, post.excerpt, post.phone, post.email, post.website];
  }
  return [
    post.name,
    post.description,
    post.excerpt,
    post.address,
    post.city,
    post.province,
    post.state,
    post.stateprovince,
    post.zip,
    post.phone,
  ];
}

/** Venue/organizer search (REFERENCE §4.7): any one field must contain every fragment of the text. */
function searchMatcher(text: string) {
  const fragments = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter(Boolean);
  return (post: LinkedPost) =>
    searchFields(post).some((field) => {
      const haystack = field.toLowerCase();
      return fragments.every((fragment) => haystack.includes(fragment));
    });
}

/** Each collection's posts in archive order, from the last query that sorted them. */
const archiveOrder = new WeakMap<Posts, LinkedPost[]>();

/**
 * The posts newest first (post date, then id, descending), sorted again only after a change. Records are
 * replaced on every change, never modified in place, so the cached order still holds exactly when it has as
 * many posts as the collection and each is the collection's current record (a check without sorting).
 */
function newestFirst(posts: Posts): LinkedPost[] {
  const cached = archiveOrder.get(posts);
  if (cached && cached.length === posts.size && cached.every((post) => posts.get(post.id) === post))
    return cached;
  const sorted = [...posts.values()].sort((a, b) =>
    a.dateUtc < b.dateUtc ? 1 : a.dateUtc > b.dateUtc ? -1 : b.id - a.id,
  );
  archiveOrder.set(posts, sorted);
  return sorted;
}

/** One page of the venues or organizers a query matches, newest first, and how many match in all. */
export function runLinkedPostQuery(
  kind: LinkedKind,
  query: LinkedPostQuery,
  store: CalendarStore,
  page: { offset: number; limit: number },
): { total: number; items: LinkedPost[] } {
  const { statuses } = query;
  const nowLocal = nowUtc(query.now);
  /** Whether an event linked to the post passes `test` (stops at the first); a trashed post shows on none. */
  const anyEvent = (post: LinkedPost, test: (event: StoredEvent) => boolean) => {
    if (post.status === 'trash') return false;
    for (const eventId of linkedEvents(store, kind, post.id) ?? []) {
      const event = store.events.get(eventId);
      if (event && test(event)) return true;
    }
    return false;
  };
  const filters: Array<(post: LinkedPost) => boolean> = [(post) => statuses.has(post.status)];
  if (query.search) {
    const matches = searchMatcher(query.search);
    filters.push((post) => post.status !== 'trash' && matches(post));
  }
  if (query.eventId !== undefined) {
    const event = store.events.get(query.eventId)!;
    const linked = new Set(kind === 'venue' ? [shownVenueId(store, event)] : shownOrganizerIds(store, event));
    filters.push((post) => linked.has(post.id));
  }
  if (query.hasEvents !== undefined) {
    const wanted = query.hasEvents;
    filters.push(
      (post) => anyEvent(post, (event) => event.status !== 'draft' && event.status !== 'pending') === wanted,
    );
  }
  // `only_with_upcoming` looks at events of the archive's effective statuses (REFERENCE §4.7).
  if (query.onlyWithUpcoming) {
    filters.push((post) =>
      anyEvent(post, (event) => statuses.has(event.status) && event.startUtc >= nowLocal),
    );
  }
  const language = query.language;
  if (language) filters.push((post) => post.language === language);
  const matching = newestFirst(postsOf(store, kind)).filter((post) =>
    filters.every((filter) => filter(post)),
  );
  return { total: matching.length, items: matching.slice(page.offset, page.offset + page.limit) };
}
