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
import { PresentedBytes, type KeptPart } from './presentedBytes';
import { JsonWriter } from './jsonBytes';
import { dateDetailsJson } from '../../core/dates/sqlDates';

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

/**
 * The own keys of 100,000 events (≈1.2 KB each with what keeping them costs, their description and dates
 * written per answer), and every venue, organizer and term.
 */
const MAX_BYTES = 160 * 1024 * 1024;
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

/**
 * Keys of an event's own JSON whose values are not kept but written per answer: the description (the record
 * holds it already) and the four date details (a few string slices): about half of the bytes of a head, so
 * the kept heads of a 100,000-event calendar fit the budget. Their values, in this order, by `holeValues`.
 */
const HOLES = [
  'description',
  'start_date_details',
  'end_date_details',
  'utc_start_date_details',
  'utc_end_date_details',
];

function holeValues(event: StoredEvent): string[] {
  return [
    JSON.stringify(event.description),
    dateDetailsJson(event.startLocal),
    dateDetailsJson(event.endLocal),
    dateDetailsJson(event.startUtc),
    dateDetailsJson(event.endUtc),
  ];
}

/**
 * `JSON.stringify(record)` without its closing brace and without the values of the `holes` keys: the text and,
 * per hole, the byte offset its value goes in at. Consecutive other keys are serialized together, so the text
 * is exactly JSON.stringify's (a key whose value it would leave out is left out).
 */
function jsonWithHoles(record: Record<string, unknown>, holes: readonly string[]) {
  let text = '{';
  let bytes = 1;
  let comma = '';
  const marks: number[] = [];
  let group: Record<string, unknown> = {};
  const append = (piece: string) => {
    text += piece;
    bytes += Buffer.byteLength(piece);
  };
  const flush = () => {
    const inner = JSON.stringify(group).slice(1, -1);
    if (inner !== '') {
      append(comma + inner);
      comma = ',';
    }
    group = {};
  };
  for (const key of Object.keys(record)) {
    if (!holes.includes(key)) {
      group[key] = record[key];
      continue;
    }
    flush();
    append(`${comma}${JSON.stringify(key)}:`);
    marks.push(bytes);
    comma = ',';
  }
  flush();
  return { text, marks };
}

/** `{"id":…,"featured":…,"categories":[` of an event: its own keys, open for the embedded ones. */
function head(spaces: Spaces, event: StoredEvent, env: PresentEnv): KeptPart {
  const sources = [event, env.store.settings, imageOf(event.imageId, env)];
  return spaces.heads.kept(event.id, sources, () => {
    const own = jsonWithHoles(eventOwnFields(event, env), HOLES);
    return { text: `${own.text},"categories":[`, marks: own.marks };
  });
}

/** Writes a kept part with the values of its holes. */
function writeWithHoles(writer: JsonWriter, part: KeptPart, values: readonly string[]): void {
  let from = 0;
  for (let i = 0; i < part.marks.length; i++) {
    writer.bytes(part.bytes, from, part.marks[i]);
    writer.text(values[i]!);
    from = part.marks[i]!;
  }
  writer.bytes(part.bytes, from);
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
function writeEvent(
  out: JsonWriter,
  spaces: Spaces,
  event: StoredEvent,
  env: PresentEnv,
  passwordOf: (event: StoredEvent) => string | undefined,
): void {
  if (event.password !== '' || editsEvent(event, env)) {
    // Shown per caller: a password may unlock it, an editor sees the cost as typed.
    out.text(JSON.stringify(presentEvent(event, env, { password: passwordOf(event) })));
    return;
  }
  writeWithHoles(out, head(spaces, event, env), holeValues(event));
  writeTerms(out, spaces, event.categoryIds, env);
  out.bytes(TAGS);
  writeTerms(out, spaces, event.tagIds, env);
  out.bytes(VENUE);
  const venue = shownVenueOf(event, env);
  out.bytes(venue ? venueBytes(spaces, venue, env) : EMPTY_ARRAY);
  out.bytes(ORGANIZER);
  const organizers = shownOrganizersOf(event, env);
  for (let i = 0; i < organizers.length; i++) {
    if (i > 0) out.bytes(COMMA);
    out.bytes(organizerBytes(spaces, organizers[i]!, env));
  }
  out.text(tailText(event, env));
}

function writeTerms(out: JsonWriter, spaces: Spaces, ids: number[], env: PresentEnv): void {
  const terms = embeddedTermsOf(ids, env);
  for (let i = 0; i < terms.length; i++) {
    if (i > 0) out.bytes(COMMA);
    out.bytes(termBytes(spaces, terms[i]!, env));
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
  // The order is made in slices too (Date.parse and a sort of 100,000 events would hold the loop for 0.1 s
  // and more): each candidate's distance to today, in seconds, and its position, in one number sorted as such.
  let candidates: StoredEvent[] | undefined;
  let keys = new Float64Array(0);
  let keyed = 0;
  let slot = 1;
  const order = (until: number): StoredEvent[] | undefined => {
    if (!candidates) {
      candidates = [...store.events.values()].filter(
        (event) => event.password === '' && event.status !== 'trash',
      );
      keys = new Float64Array(candidates.length);
      while (slot <= candidates.length) slot *= 2;
      return undefined;
    }
    while (keyed < keys.length && performance.now() < until) {
      for (const end = Math.min(keys.length, keyed + 200); keyed < end; keyed++) {
        const seconds =
          Math.round(Math.abs(Date.parse(`${candidates[keyed]!.startUtc}Z`) - today) / 1000) || 0;
        keys[keyed] = Math.min(seconds, Math.floor(2 ** 52 / slot)) * slot + keyed;
      }
    }
    if (keyed < keys.length) return undefined;
    keys.sort();
    const sorted = candidates;
    return Array.from(keys, (key) => sorted[key % slot]!);
  };
  const slice = () => {
    const parts = partsOf(store);
    if (!queue) {
      queue = order(performance.now() + WARM_SLICE_MS);
      if (!queue) {
        setImmediate(slice);
        return;
      }
    }
    const spaces = spacesOf(quiet);
    const until = performance.now() + WARM_SLICE_MS;
    // Written and thrown away: what counts is what gets kept on the way.
    const scratch = new JsonWriter();
    while (next < queue.length && performance.now() < until) {
      if (parts.bytes >= parts.maxBytes * WARM_SHARE) return;
      // Taken from the store again: the queued object may have been replaced since.
      const event = store.events.get(queue[next++]!.id);
      if (event) writeEvent(scratch, spaces, event, quiet, () => undefined);
      scratch.reset();
    }
    if (next < queue.length) setImmediate(slice);
  };
  // Once a start's records are all read: reading them in one piece here would stall the next requests.
  void store.allEventsRead().then(() => setImmediate(slice));
}

/**
 * Writes the events of a list, comma-separated (the items of its JSON array), byte for byte what serializing
 * `events.map((event) => presentEvent(event, env, { password: passwordOf(event) }))` gives. `passwordOf` is
 * asked only for the events a password may unlock.
 */
export function writeEventList(
  out: JsonWriter,
  events: StoredEvent[],
  env: PresentEnv,
  passwordOf: (event: StoredEvent) => string | undefined = () => undefined,
): void {
  warmUp(env);
  const spaces = spacesOf(env);
  for (let i = 0; i < events.length; i++) {
    if (i > 0) out.bytes(COMMA);
    writeEvent(out, spaces, events[i]!, env, passwordOf);
  }
}
