import type { CalendarStore } from '../../store/store';
import type { StoredEvent, StoredOrganizer, StoredTerm, StoredVenue } from '../../store/schema';
import type { PresentEnv } from './common';
import {
  editsEvent,
  embeddedTermsOf,
  eventOwnFields,
  eventSeriesFields,
  presentEvent,
  shownOrganizersOf,
  shownVenueOf,
} from './event';
import { presentOrganizer, presentVenue } from './linkedPosts';
import { presentEmbeddedTerm } from './term';
import { PresentedBytes } from './presentedBytes';
import type { JsonPart } from './jsonBytes';

/**
 * The JSON of the events of a list, as `JSON.stringify(presentEvent(event, env))` would write it, assembled
 * from parts kept per record: the event's own keys, each embedded term, venue and organizer. A page then
 * costs copying bytes, not building and serializing 50 records with everything they embed.
 *
 * What a part shows depends on the record, the records and settings named in its sources, and the addresses
 * of the request (`nsRoot` holds the host, port and language root): the key carries the addresses. Answers
 * that depend on the caller are never kept: a password-protected event, or an event shown for editing
 * (`context=edit` by someone who may edit it), is presented in full every time.
 */

/** About 60,000 events' own keys (≈1.9 KB each), and every venue, organizer and term. */
const MAX_BYTES = 128 * 1024 * 1024;
/** The warm-up stops when the parts fill this share of the budget: room is left for what is asked. */
const WARM_SHARE = 0.85;
/** The longest a warm-up slice keeps the event loop, so that requests wait at most this long for it. */
const WARM_SLICE_MS = 4;

const byStore = new WeakMap<CalendarStore, PresentedBytes>();

function partsOf(store: CalendarStore): PresentedBytes {
  let parts = byStore.get(store);
  if (!parts) {
    parts = new PresentedBytes(MAX_BYTES);
    byStore.set(store, parts);
  }
  return parts;
}

const bytes = (text: string) => Buffer.from(text, 'utf8');
const COMMA = bytes(',');
const EMPTY_ARRAY = bytes('[]');
const TAGS = bytes('],"tags":[');
const VENUE = bytes('],"venue":');
const ORGANIZER = bytes(',"organizer":[');

/** The spaces of one request's addresses (`nsRoot` holds the host, port and language root). */
function spacesOf(env: PresentEnv) {
  const parts = partsOf(env.store);
  const root = env.links.nsRoot;
  return {
    heads: parts.space(`event ${root}`),
    terms: parts.space(`term ${root}`),
    venues: parts.space(`venue ${root}`),
    organizers: parts.space(`organizer ${root}`),
  };
}
type Spaces = ReturnType<typeof spacesOf>;

const imageOf = (imageId: number | null, env: PresentEnv) =>
  imageId ? env.store.media.get(imageId) : undefined;

function termBytes(spaces: Spaces, term: StoredTerm, env: PresentEnv): Buffer {
  // The embedded term shows how many events it has: that count is a source too.
  const count = env.store.eventIndex.termCount(term.id);
  return spaces.terms.through(term.id, [term, count], () => JSON.stringify(presentEmbeddedTerm(term, env)));
}

function venueBytes(spaces: Spaces, venue: StoredVenue, env: PresentEnv): Buffer {
  const sources = [venue, env.store.settings, imageOf(venue.imageId, env)];
  // Embedded in a list: no JSON-LD, and a protected venue is blanked whoever asks (no password reaches it).
  return spaces.venues.through(venue.id, sources, () => JSON.stringify(presentVenue(venue, env)));
}

function organizerBytes(spaces: Spaces, organizer: StoredOrganizer, env: PresentEnv): Buffer {
  const sources = [organizer, env.store.settings, imageOf(organizer.imageId, env)];
  return spaces.organizers.through(organizer.id, sources, () =>
    JSON.stringify(presentOrganizer(organizer, env)),
  );
}

/** `{"id":…,"featured":…,"categories":[` of an event: its own keys, open for the embedded ones. */
function headBytes(spaces: Spaces, event: StoredEvent, env: PresentEnv): Buffer {
  const sources = [event, env.store.settings, imageOf(event.imageId, env)];
  return spaces.heads.through(event.id, sources, () => {
    const own = JSON.stringify(eventOwnFields(event, env));
    return `${own.slice(0, -1)},"categories":[`;
  });
}

/**
 * `],"custom_fields":[],"language":…,"uid":…,"recurrence":…,"recurrence_id":…,"ticketed":…}`: what follows
 * the organizers (small, made per answer: text written straight into it costs less than keeping it).
 */
function tailText(event: StoredEvent, env: PresentEnv): string {
  const json = JSON.stringify({
    custom_fields: [],
    language: event.language,
    uid: event.uid,
    ...eventSeriesFields(event, env),
    ticketed: event.ticketed,
  });
  return `],${json.slice(1)}`;
}

/** Appends one event's JSON to `out`, from kept parts when the answer does not depend on the caller. */
function pushEvent(
  out: JsonPart[],
  spaces: Spaces,
  event: StoredEvent,
  env: PresentEnv,
  password: string | undefined,
): void {
  if (event.password !== '' || editsEvent(event, env)) {
    // Shown per caller: a password may unlock it, an editor sees the cost as typed.
    out.push(JSON.stringify(presentEvent(event, env, { password })));
    return;
  }
  out.push(headBytes(spaces, event, env));
  pushTerms(out, spaces, event.categoryIds, env);
  out.push(TAGS);
  pushTerms(out, spaces, event.tagIds, env);
  out.push(VENUE);
  const venue = shownVenueOf(event, env);
  out.push(venue ? venueBytes(spaces, venue, env) : EMPTY_ARRAY);
  out.push(ORGANIZER);
  const organizers = shownOrganizersOf(event, env);
  for (let i = 0; i < organizers.length; i++) {
    if (i > 0) out.push(COMMA);
    out.push(organizerBytes(spaces, organizers[i], env));
  }
  out.push(tailText(event, env));
}

function pushTerms(out: JsonPart[], spaces: Spaces, ids: number[], env: PresentEnv): void {
  const terms = embeddedTermsOf(ids, env);
  for (let i = 0; i < terms.length; i++) {
    if (i > 0) out.push(COMMA);
    out.push(termBytes(spaces, terms[i], env));
  }
}

const warming = new WeakSet<CalendarStore>();

/**
 * After the first list, the events nearest today (the ones a calendar asks for most) are presented between
 * requests, a few milliseconds at a time, for the addresses that list was asked on, until the budget is nearly
 * full. Nothing is kept that a request would not keep: a change still makes its parts miss.
 */
function warmUp(env: PresentEnv): void {
  const { store } = env;
  if (warming.has(store)) return;
  warming.add(store);
  const quiet: PresentEnv = { store, links: env.links, caller: null, now: env.now, editContext: false };
  const today = env.now.getTime();
  let queue: StoredEvent[] | undefined;
  let next = 0;
  const slice = () => {
    const parts = partsOf(store);
    if (!queue) {
      const distance = (event: StoredEvent) => Math.abs(Date.parse(`${event.startUtc}Z`) - today) || 0;
      queue = [...store.events.values()]
        .filter((event) => event.password === '' && event.status !== 'trash')
        .map((event) => ({ event, distance: distance(event) }))
        .sort((a, b) => a.distance - b.distance)
        .map(({ event }) => event);
    }
    const spaces = spacesOf(quiet);
    const until = performance.now() + WARM_SLICE_MS;
    const scratch: JsonPart[] = [];
    while (next < queue.length && performance.now() < until) {
      if (parts.bytes >= parts.maxBytes * WARM_SHARE) return;
      // Taken from the store again: the queued object may have been replaced since.
      const event = store.events.get(queue[next++].id);
      if (event) pushEvent(scratch, spaces, event, quiet, undefined);
      scratch.length = 0;
    }
    if (next < queue.length) setImmediate(slice);
  };
  setImmediate(slice);
}

/**
 * The JSON array of `events` as a list shows them (`[{…},{…}]`), byte for byte what serializing
 * `events.map((event) => presentEvent(event, env, { password }))` gives.
 */
export function eventListBytes(events: StoredEvent[], env: PresentEnv, password?: string): JsonPart[] {
  warmUp(env);
  const out: JsonPart[] = [];
  const spaces = spacesOf(env);
  for (let i = 0; i < events.length; i++) {
    if (i > 0) out.push(COMMA);
    pushEvent(out, spaces, events[i], env, password);
  }
  return out;
}
