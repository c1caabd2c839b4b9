import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { LANGUAGES, POST_KINDS, POST_STATUSES, ROLES, TAXONOMIES } from '../../shared/enums';
import { categoryColorsSchema } from '../../shared/schemas/settings';
import { shapeOfRows } from '../../shared/fields/table';
import { VENUE_TEXT_FIELDS } from '../../shared/fields/venue';
import { EVENT_FLAG_FIELDS } from '../../shared/fields/event';
import { ORGANIZER_TEXT_FIELDS } from '../../shared/fields/organizer';

/**
 * The data file, as lowdb keeps it on disk. Internal names are camelCase; the wire format is built by the
 * presenters. Every date is a `Y-m-d H:i:s` string; `*Utc` ones are in UTC, `*Local` ones are wall-clock
 * time in the record's own time zone.
 */
export const SCHEMA_VERSION = 5;

const sqlDate = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
const id = z.number().int().nonnegative();
/**
 * A record's stable identity across data folders (CONTRACT §2): a UUID given once at creation (or by the
 * version 3 migration), never changed, kept by dumps, `.ics` files and sync. Ids are per folder; this is not.
 */
export const recordUid = z.uuid();

const postBase = {
  id: id,
  uid: recordUid,
  authorId: id,
  status: z.enum(POST_STATUSES),
  slug: z.string(),
  language: z.enum(LANGUAGES),
  description: z.string(),
  excerpt: z.string(),
  imageId: id.nullable(),
  password: z.string(),
  parentId: id,
  dateUtc: sqlDate,
  modifiedUtc: sqlDate,
  /** Bumped on every change; sync compares it with the revision it last pushed. */
  revision: z.number().int().nonnegative(),
};

export const storedEventSchema = z.object({
  ...postBase,
  kind: z.literal('event'),
  title: z.string(),
  startLocal: sqlDate,
  endLocal: sqlDate,
  startUtc: sqlDate,
  endUtc: sqlDate,
  timezone: z.string(),
  allDay: z.boolean(),
  /** Raw cost values as sent (an event may carry several, e.g. a range). */
  cost: z.array(z.string()),
  /** The event's own currency ('' = the site default applies): sent, or read from the cost text. */
  currencySymbol: z.string(),
  currencyPosition: z.enum(['prefix', 'postfix', '']),
  /** ISO 4217 code or ''; absent in files written before events had one (read as ''). */
  currencyCode: z.string().optional(),
  /** `null` when never set: the response then shows the event's permalink, as the reference does. */
  website: z.string().nullable(),
  ...shapeOfRows(EVENT_FLAG_FIELDS, 'stored', z.boolean()),
  ticketed: z.boolean(),
  categoryIds: z.array(id),
  tagIds: z.array(id),
  venueId: id,
  organizerIds: z.array(id),
  /**
   * The UID an imported `.ics` file gave the event when it was not a UUID (`abc@google.com`): re-importing
   * that file finds this event by it, and the `.ics` export writes it back so the other calendar recognises
   * its event. Absent for events made here or imported with a UUID (that UUID is then the `uid`).
   */
  icsUid: z.string().optional(),
  /**
   * On the head of a series only (its first event, `parentId` 0): the RFC 5545 lines of the series (`RRULE:…`,
   * `RDATE…`, `EXDATE…`), normalised. Its occurrences are events whose `parentId` is the head's id.
   */
  recurrence: z.array(z.string()).optional(),
  /** On every event of a series, head included: its original start, `Y-m-d H:i:s` wall clock in `timezone`. */
  recurrenceId: sqlDate.optional(),
  /**
   * On a head whose rules go on past the horizon: the wall clock its occurrences were created up to (they are
   * extended when the horizon moves past it). Absent when every occurrence exists (nothing to extend).
   */
  horizonLocal: sqlDate.optional(),
  /** An occurrence changed on its own (scope `this`): series edits leave it alone. */
  override: z.literal(true).optional(),
});

export const storedVenueSchema = z.object({
  ...postBase,
  kind: z.literal('venue'),
  name: z.string(),
  ...shapeOfRows(VENUE_TEXT_FIELDS, 'stored', z.string()),
  showMap: z.boolean(),
  showMapLink: z.boolean(),
  geoLat: z.number().nullable(),
  geoLng: z.number().nullable(),
});

export const storedOrganizerSchema = z.object({
  ...postBase,
  kind: z.literal('organizer'),
  name: z.string(),
  ...shapeOfRows(ORGANIZER_TEXT_FIELDS, 'stored', z.string()),
});

export const storedTermSchema = z.object({
  id: id,
  uid: recordUid,
  taxonomy: z.enum(TAXONOMIES),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  parent: id,
  language: z.enum(LANGUAGES),
  modifiedUtc: sqlDate,
  revision: z.number().int().nonnegative(),
});

export const storedMediaSchema = z.object({
  id: id,
  url: z.string(),
  extension: z.string(),
  /** Set when the file was copied into the data folder (served under /media/). */
  fileName: z.string().nullable(),
  authorId: id,
  dateUtc: sqlDate,
});

/** The kinds of record the change feed follows: each term's taxonomy, and the three post kinds. */
export const FEED_KINDS = [...TAXONOMIES, ...POST_KINDS] as const;
export type FeedKind = (typeof FEED_KINDS)[number];
const feedKind = z.enum(FEED_KINDS);
const changeSeq = z.number().int().positive();

/** A record deleted for good, as the change feed keeps it for a while (see store/changeFeed.ts). */
export const tombstoneSchema = z.object({
  seq: changeSeq,
  kind: feedKind,
  id: id,
  uid: recordUid,
  deletedUtc: sqlDate,
});

/** The character standing for `FEED_KINDS[0]` in the change feed's `kinds` (then `1`, `2`…). */
export const FEED_KIND_CODE_BASE = 0x30;

/**
 * The change feed's live entries in columns (schema 5): entry `i` is change `seqs[i]` of the record of kind
 * `kinds[i]` (one character each, see FEED_KIND_CODE_BASE) and id `ids[i]`. An array of `[seq, kind, id]`
 * per record took ~15 ms more to parse at 100,000 events, and left 100,000 arrays to collect.
 */
export const liveColumnsSchema = z
  .object({ seqs: z.array(changeSeq), kinds: z.string(), ids: z.array(id) })
  .refine(
    ({ seqs, kinds, ids }) =>
      seqs.length === kinds.length &&
      ids.length === kinds.length &&
      [...kinds].every((code) => FEED_KINDS[code.charCodeAt(0) - FEED_KIND_CODE_BASE] !== undefined),
    { message: 'the change feed’s columns differ in length, or name a kind of record that does not exist' },
  );

/**
 * The change feed (CONTRACT §7, `calendar-desk/v1/changes`): every change of an event, venue, organizer,
 * category or tag takes the next `seq`; `live` says at which one each existing record last changed, and
 * `tombstones` the records deleted for good lately. A reader's cursor older than `horizon` (the newest
 * tombstone pruned) may have missed a deletion: it must read everything again.
 */
export const changeFeedSchema = z.object({
  /** Names this calendar's sequence: a cursor of another calendar (or data folder) is not valid here. */
  id: z.uuid(),
  /** The last number given. */
  seq: z.number().int().nonnegative(),
  horizon: z.number().int().nonnegative(),
  /** Every existing record's latest change, ascending seq: see liveColumnsSchema. */
  live: liveColumnsSchema,
  /** Ascending seq. */
  tombstones: z.array(tombstoneSchema),
});

const secretHash = z.object({ salt: z.string(), hash: z.string() });

export const storedAppPasswordSchema = secretHash.extend({
  uuid: z.string(),
  name: z.string(),
  createdUtc: sqlDate,
  lastUsedUtc: sqlDate.nullable(),
});

export const storedUserSchema = z.object({
  id: id,
  login: z.string(),
  displayName: z.string(),
  role: z.enum(ROLES),
  appPasswords: z.array(storedAppPasswordSchema),
  createdUtc: sqlDate,
});

export const storedTokenSchema = secretHash.extend({
  id: z.string(),
  userId: id,
  name: z.string(),
  createdUtc: sqlDate,
});

export const settingsSchema = z.object({
  siteName: z.string(),
  siteDescription: z.string(),
  /** IANA zone name or `UTC+N` offset, as WordPress' `timezone_string` / `gmt_offset`. */
  timezone: z.string(),
  postsPerPage: z.number().int().positive(),
  /** Default currency of costs (absent = the original's defaults, `$` prefix USD: see core/cost `siteCurrency`). */
  currencySymbol: z.string().optional(),
  currencyPosition: z.enum(['prefix', 'postfix']).optional(),
  currencyCode: z.string().optional(),
  /** Colours picked per category id (absent in files written before there were any). */
  categoryColors: categoryColorsSchema.optional(),
  /** How far ahead repeating events without an end are created, in months (absent: 24). */
  recurrenceHorizonMonths: z.number().int().min(1).max(120).optional(),
  /** How many months of past events the subscribable feeds keep (absent = 3; see core/feeds/select.ts). */
  feedPastMonths: z.number().int().min(0).max(120).optional(),
  /** Records an account below editor may add per hour (absent = 200; see core/writeBudget.ts). */
  writeBudgetCreatesPerHour: z.number().int().min(1).max(1_000_000).optional(),
  /** Occurrences of repeating events an account below editor may add per hour (absent = 5,000). */
  writeBudgetOccurrencesPerHour: z.number().int().min(1).max(1_000_000).optional(),
});

export const dataFileSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  /** The last journal batch folded into this file: batches after it are replayed on start. */
  journalSeq: z.number().int().nonnegative(),
  counters: z.object({ post: id, term: id, user: id }),
  settings: settingsSchema,
  events: z.array(storedEventSchema),
  venues: z.array(storedVenueSchema),
  organizers: z.array(storedOrganizerSchema),
  terms: z.array(storedTermSchema),
  media: z.array(storedMediaSchema),
  users: z.array(storedUserSchema),
  tokens: z.array(storedTokenSchema),
  /** State of the sync engine: per remote, its description and one entry per linked record (see sync/linkState.ts). */
  syncLinks: z.record(z.string(), z.unknown()),
  changeFeed: changeFeedSchema,
});

/** An array whose elements are not looked at, passed on as it is: `z.array(z.any())` copies it element by
 * element (at 100,000 events, ~20 ms and 200,000 objects of garbage in a start). */
const uncheckedArray = z.custom<unknown[]>((value) => Array.isArray(value), 'Expected an array');

/** The change feed of a data file the store wrote itself: its columns' numbers are not checked one by one. */
export const changeFeedShapeSchema = changeFeedSchema.extend({
  live: z.object({ seqs: uncheckedArray, kinds: z.string(), ids: uncheckedArray }),
}) as unknown as typeof changeFeedSchema;

/**
 * The data file's outline only (records unchecked): for the file this program itself last wrote, which
 * needs no per-record validation — that pass costs about half a second and a copy of everything at 100k events.
 */
export const dataFileShapeSchema = dataFileSchema.extend({
  events: uncheckedArray,
  venues: uncheckedArray,
  organizers: uncheckedArray,
  terms: uncheckedArray,
  media: uncheckedArray,
  users: uncheckedArray,
  tokens: uncheckedArray,
  changeFeed: changeFeedShapeSchema,
}) as unknown as typeof dataFileSchema;

export type StoredEvent = z.infer<typeof storedEventSchema>;
export type StoredVenue = z.infer<typeof storedVenueSchema>;
export type StoredOrganizer = z.infer<typeof storedOrganizerSchema>;
export type StoredPost = StoredEvent | StoredVenue | StoredOrganizer;
export type StoredTerm = z.infer<typeof storedTermSchema>;
export type StoredMedia = z.infer<typeof storedMediaSchema>;
export type StoredUser = z.infer<typeof storedUserSchema>;
export type StoredAppPassword = z.infer<typeof storedAppPasswordSchema>;
export type StoredToken = z.infer<typeof storedTokenSchema>;
export type Settings = z.infer<typeof settingsSchema>;
export type Tombstone = z.infer<typeof tombstoneSchema>;
export type ChangeFeedState = z.infer<typeof changeFeedSchema>;
export type DataFile = z.infer<typeof dataFileSchema>;

export function emptyDataFile(settings: Settings): DataFile {
  return {
    schemaVersion: SCHEMA_VERSION,
    journalSeq: 0,
    counters: { post: 0, term: 0, user: 0 },
    settings,
    events: [],
    venues: [],
    organizers: [],
    terms: [],
    media: [],
    users: [],
    tokens: [],
    syncLinks: {},
    changeFeed: emptyChangeFeed(),
  };
}

/** The change feed of a calendar that has had no change yet: a sequence of its own. */
export function emptyChangeFeed(): ChangeFeedState {
  return { id: randomUUID(), seq: 0, horizon: 0, live: { seqs: [], kinds: '', ids: [] }, tombstones: [] };
}
