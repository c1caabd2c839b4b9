import { newUid } from './uids';
import type { DateTime } from 'luxon';
import type { Language } from '../../shared/enums';
import type { CalendarStore, Transaction } from '../store/store';
import type { StoredEvent } from '../store/schema';
import type { MaybeCaller } from './capabilities';
import { formatSql, isCalendarSql, toUtcSql } from './dates/sqlDates';
import { parseDateInput } from './dates/strtotime';
import { parseCostInput, type ParsedCost } from './cost';
import { sanitizeRichText, toPlainText } from './html';
import { nowUtc, OUT_OF_RANGE, postSlug, publicationDateUtc, resolveImage, untrashedSlug } from './posts';
import { resolveEventTerms } from './terms';
import { createOrganizer, createVenue } from './linkedPosts';
import { linkedEntries, normaliseInlineKeys } from './linkedEntries';
import { givenStatus } from './writes';
import { textOf } from './values';
import {
  EVENT_FLAG_FIELDS,
  EVENT_TEXT_FIELDS,
  type EventFlagInput,
  type EventTextInput,
  type TextRow,
} from '../../shared/fields/event';
import { objectOfRows } from '../../shared/fields/table';

export const SERIES_SCOPES = ['this', 'following', 'all'] as const;
/** Which events of a series a change of one of them applies to; `this` unless said otherwise. */
export type SeriesScope = (typeof SERIES_SCOPES)[number];

/** Validated event arguments (create or update); absent keys are not changed on update. */
export interface EventInput extends EventFlagInput, EventTextInput {
  author?: number;
  date?: string | number;
  date_utc?: string | number;
  slug?: string;
  status?: string;
  timezone?: string;
  all_day?: boolean;
  start_date?: string | number;
  end_date?: string | number;
  image?: string | number | null;
  cost?: string | number | Array<string | number> | null;
  /** '' or null: none of its own (the site default applies). */
  currency_symbol?: string | null;
  currency_position?: 'prefix' | 'postfix' | '' | null;
  currency_code?: string | null;
  website?: unknown;
  ticketed?: boolean;
  categories?: unknown;
  tags?: unknown;
  venue?: unknown;
  organizer?: unknown;
  post_password?: string;
  /** Create only: the uid an administrator's sync brings from another Calendar Desk (see `addEvent`). */
  uid?: string;
  /** RFC 5545 lines (normalised by the arguments): makes the event the head of a series (`[]`: no longer one). */
  recurrence?: string[];
  /** Update of an event of a series: which of its events the change applies to (default `this`). */
  scope?: SeriesScope;
}

export interface EventWriteContext {
  tx: Transaction;
  store: CalendarStore;
  caller: MaybeCaller;
  now: Date;
  language: Language;
  /**
   * An organizer list is taken as given, trashed organizers of the old one dropped (the sync taking another
   * calendar's version, where a merge may have replaced one); otherwise they are kept (see withTrashedKept).
   */
  organizersAsGiven?: boolean;
  /**
   * When set (a `performance.now()` time), a series write stops making its events once it has passed, as it
   * stops at MATERIALISED_AT_ONCE: the series is made up to there, and `materialiseSeries` makes the rest (an
   * import of a long series, a slice at a time: issue 26 item 3).
   */
  seriesDeadline?: number;
  /**
   * As `seriesDeadline` for the making of a series' events only, in a store change that is taken back at its
   * end (a preview of a large import): the series is left made up to there and never gone on with, its other
   * writes do not pause. Its remaining dates are still the series' (see `isSeriesDate`).
   */
  occurrencesUntil?: number;
}

/** A rule of the calendar the input breaks; the route reports it as a 400 on `field`. */
export class EventRuleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function parseIn(value: string | number, zone: string, now: Date, field: string): DateTime {
  const parsed = parseDateInput(value, zone, now);
  if (!parsed) throw new EventRuleError(field, 'Invalid parameter.');
  return parsed;
}

/** `local` and its UTC twin, refused (400 on `field`) when either falls outside the years the calendar holds. */
function heldDate(local: string, zone: string, field: string): { local: string; utc: string } {
  const utc = isCalendarSql(local) ? toUtcSql(local, zone) : '';
  if (!isCalendarSql(utc)) throw new EventRuleError(field, OUT_OF_RANGE);
  return { local, utc };
}

/** Local start/end (and their UTC twins) from the sent dates, in the event's zone, all-day aware. */
function schedule(
  base: Pick<StoredEvent, 'startLocal' | 'endLocal' | 'allDay'>,
  input: EventInput,
  zone: string,
  now: Date,
): Pick<StoredEvent, 'startLocal' | 'endLocal' | 'startUtc' | 'endUtc' | 'allDay'> {
  const allDay = input.all_day ?? base.allDay;
  let start =
    input.start_date !== undefined
      ? formatSql(parseIn(input.start_date, zone, now, 'start_date'))
      : base.startLocal;
  let end =
    input.end_date !== undefined ? formatSql(parseIn(input.end_date, zone, now, 'end_date')) : base.endLocal;
  if (allDay) {
    start = `${start.slice(0, 10)} 00:00:00`;
    end = `${end.slice(0, 10)} 23:59:59`;
  }
  // Past year 9999 (or before year 0), here or in UTC, a date has no 'Y-m-d H:i:s' the store could keep.
  const first = heldDate(start, zone, 'start_date');
  const last = heldDate(end, zone, 'end_date');
  if (end < start) {
    throw new EventRuleError('end_date', 'The end date must not be before the start date.');
  }
  return { startLocal: start, endLocal: end, startUtc: first.utc, endUtc: last.utc, allDay };
}

/**
 * `website` as stored: absent keeps it; `null`/`''` clears it to `''` (the reference then answers `""`, as after
 * any update that writes an empty URL). A create never writes an empty URL: see `createEvent`.
 */
function websiteValue(value: unknown, previous: string | null): string | null {
  if (value === undefined) return previous;
  if (value === null) return '';
  return textOf(value).trim();
}

/** Venue/organizer ids of an event argument, creating the inline ones (REFERENCE §5.4). */
function linkedIds(kind: 'venue' | 'organizer', value: unknown, context: EventWriteContext): number[] {
  const entries = linkedEntries(value) ?? [];
  const ids = entries.map((entry) => {
    if (typeof entry === 'number') return entry;
    if (entry.id !== undefined) return Number(entry.id);
    const data = normaliseInlineKeys(entry);
    return kind === 'venue' ? createVenue(data, context).id : createOrganizer(data, context).id;
  });
  return [...new Set(ids)];
}

/** Applies the sent fields onto `base` (true patch); the caller stores the result. */
export function applyEventInput(
  base: StoredEvent,
  input: EventInput,
  context: EventWriteContext,
): StoredEvent {
  const { tx, store, now } = context;
  const has = (key: keyof EventInput) => input[key] !== undefined;
  const zone =
    has('timezone') && input.timezone !== ''
      ? input.timezone!
      : has('timezone')
        ? store.settings.timezone
        : base.timezone;
  const cost = has('cost') ? parseCostInput(input.cost ?? '') : undefined;
  if (has('cost') && cost === null) throw new EventRuleError('cost', 'Invalid parameter.');
  const event: StoredEvent = {
    ...base,
    ...schedule(base, input, zone, now),
    timezone: zone,
    ...objectOfRows(EVENT_TEXT_FIELDS, 'stored', (row) =>
      writtenText(row, input[row.wire], base[row.stored]),
    ),
    authorId: input.author ?? base.authorId,
    dateUtc: publicationDateUtc(input, store.settings.timezone, now) ?? base.dateUtc,
    imageId: has('image') ? resolveImage(tx, store, input.image, base.authorId, now) : base.imageId,
    cost: cost ? cost.values : base.cost,
    ...currencyFields(base, input, cost),
    website: websiteValue(input.website, base.website),
    ...objectOfRows(EVENT_FLAG_FIELDS, 'stored', (row) => input[row.wire] ?? base[row.stored]),
    ticketed: input.ticketed ?? base.ticketed,
    password: input.post_password ?? base.password,
    categoryIds: has('categories')
      ? resolveEventTerms(tx, store, 'category', input.categories, context.language, now)
      : base.categoryIds,
    tagIds: has('tags')
      ? resolveEventTerms(tx, store, 'tag', input.tags, context.language, now)
      : base.tagIds,
    venueId: has('venue') ? (linkedIds('venue', input.venue, context)[0] ?? 0) : base.venueId,
    organizerIds: !has('organizer')
      ? base.organizerIds
      : context.organizersAsGiven
        ? linkedIds('organizer', input.organizer, context)
        : withTrashedKept(store, base.organizerIds, linkedIds('organizer', input.organizer, context)),
  };
  if (has('status')) event.status = givenStatus(context.caller, input.status);
  if (has('slug')) event.slug = postSlug(store, 'event', input.slug!, event.id, `event-${event.id}`);
  return event;
}

/** A text after a write: plain text or sanitized HTML, as its row says; unchanged when not sent. */
function writtenText(row: TextRow, sent: string | null | undefined, before: string): string {
  if (sent === undefined) return before;
  return row.type === 'text' ? toPlainText(sent ?? '') : sanitizeRichText(sent ?? '');
}

/**
 * An event's new organizer list, with the organizers of its old list that are in the trash kept at the end: a
 * list as the event shows it (a trashed organizer hidden, as the original hides it) drops none of them for
 * good, so restoring one brings it back to its events, as a restored venue comes back.
 */
function withTrashedKept(store: CalendarStore, before: number[], given: number[]): number[] {
  const trashed = before.filter((id) => !given.includes(id) && store.organizers.get(id)?.status === 'trash');
  return trashed.length === 0 ? given : [...given, ...trashed];
}

/**
 * The event's own currency after a write. A symbol or position sent wins. Otherwise the cost text decides, as
 * the original reads it (`20€` → `€` after the number; `20` → none, the site default: sample 41) when a new
 * cost is sent or the event's own symbol or position is cleared (`''`/`null`: "none of its own").
 */
function currencyFields(
  base: StoredEvent,
  input: EventInput,
  cost: ParsedCost | null | undefined,
): Pick<StoredEvent, 'currencySymbol' | 'currencyPosition' | 'currencyCode'> {
  const cleared = (value: unknown) => value === '' || value === null;
  const fromText =
    cost ??
    (cleared(input.currency_symbol) || cleared(input.currency_position)
      ? (parseCostInput(base.cost) ?? undefined)
      : undefined);
  return {
    currencySymbol: input.currency_symbol || (fromText ? fromText.symbol : base.currencySymbol),
    currencyPosition: input.currency_position || (fromText ? fromText.position : base.currencyPosition),
    currencyCode: input.currency_code !== undefined ? (input.currency_code ?? '') : (base.currencyCode ?? ''),
  };
}

const EPOCH = '1970-01-01 00:00:00';

/**
 * A stored event with every optional field at its default: the shape `createEvent` starts from (and tests
 * build fixtures from). Events created without map flags show the map and its link (CONTRACT §3).
 */
export function eventRecord(
  fields: Pick<StoredEvent, 'id' | 'authorId' | 'status' | 'language' | 'dateUtc' | 'timezone'> &
    Partial<StoredEvent>,
): StoredEvent {
  return {
    kind: 'event',
    uid: newUid(),
    slug: '',
    description: '',
    excerpt: '',
    imageId: null,
    password: '',
    parentId: 0,
    modifiedUtc: fields.dateUtc,
    revision: 1,
    title: '',
    startLocal: EPOCH,
    endLocal: EPOCH,
    startUtc: EPOCH,
    endUtc: EPOCH,
    allDay: false,
    cost: [],
    currencySymbol: '',
    currencyPosition: '',
    currencyCode: '',
    website: null,
    ...objectOfRows(EVENT_FLAG_FIELDS, 'stored', (row) => row.default),
    ticketed: false,
    categoryIds: [],
    tagIds: [],
    venueId: 0,
    organizerIds: [],
    ...fields,
  };
}

/**
 * The identity an imported event brings from its file (CONTRACT §2): its `uid`, or the foreign `.ics` UID kept
 * beside a new one. Never an API argument: a client's `uid` is ignored.
 */
export type EventIdentity = Partial<Pick<StoredEvent, 'uid' | 'icsUid'>>;

/**
 * Creates one event from validated create arguments (with a new uid, unless an import brings its own), without
 * its repeat rules: `createEvent` in events.ts starts the series.
 */
export function createSingleEvent(
  input: EventInput,
  context: EventWriteContext,
  identity: EventIdentity = {},
): StoredEvent {
  const { tx, store, now } = context;
  const created = nowUtc(now);
  const zone = input.timezone || store.settings.timezone;
  const base = eventRecord({
    ...(identity.uid ? { uid: identity.uid } : {}),
    ...(identity.icsUid ? { icsUid: identity.icsUid } : {}),
    id: 0,
    authorId: input.author ?? context.caller?.userId ?? 0,
    status: givenStatus(context.caller, input.status),
    language: context.language,
    dateUtc: created,
    modifiedUtc: created,
    timezone: zone,
  });
  const event = applyEventInput(
    base,
    { ...input, status: undefined, slug: undefined, recurrence: undefined },
    context,
  );
  // The id comes after the inline venue, organizers and media it created, as in the reference (sample 40).
  event.id = tx.nextPostId();
  // The reference writes `_EventURL` on create only when a URL is given; without one the permalink shows.
  if (!event.website) event.website = null;
  event.slug = postSlug(store, 'event', input.slug ?? event.title, event.id, `event-${event.id}`);
  tx.putEvent(event);
  return event;
}

/** Patches an event; bumps its revision and modification time. */
export function updateEvent(base: StoredEvent, input: EventInput, context: EventWriteContext): StoredEvent {
  const event = applyEventInput(base, input, context);
  if (base.status === 'trash' && event.status !== 'trash' && !input.slug) {
    event.slug = untrashedSlug(context.store, event);
  }
  const updated = { ...event, modifiedUtc: nowUtc(context.now), revision: base.revision + 1 };
  context.tx.putEvent(updated);
  return updated;
}
