import { z } from 'zod';
import { changeCursorSchema } from '../../shared/schemas/changes';
import { SYNC_KINDS, type Conflict, type Operation, type SyncKind } from '../../shared/schemas/sync';

export {
  POLICIES,
  SYNC_KINDS,
  type Conflict,
  type ConflictPolicy,
  type ConflictReason,
  type Decisions,
  type FieldDiff,
  type Operation,
  type SyncDirection,
  type SyncKind,
} from '../../shared/schemas/sync';

/** The REST collection of each kind, and the key its archive answers under. */
export const COLLECTION: Record<SyncKind, string> = {
  category: 'categories',
  tag: 'tags',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
};

/** Local ids another record points at; the executor turns them into remote ids when it sends the record. */
export interface LocalRefs {
  parent?: number;
  venue?: number;
  organizer?: number[];
  categories?: number[];
  tags?: number[];
}

/**
 * The featured picture of a local event, venue or organizer: a file uploaded into the data folder (sent by
 * uploading it to the remote once) or a picture given by its http(s) address (sent as that address).
 */
export interface LocalImage {
  mediaId: number;
  /** The file under the data folder's `media/`; null for a picture given by address. */
  fileName: string | null;
  /** The picture's address: for a file its path under `/media/`, otherwise the http(s) URL. */
  url: string;
}

/** A local record as the planner sees it: wire-named fields without references, and the references apart. */
export interface LocalRecord {
  kind: SyncKind;
  id: number;
  revision: number;
  slug: string;
  /** Trashed locally: pushed as a deletion when it is linked. */
  deleted: boolean;
  fields: Record<string, unknown>;
  refs: LocalRefs;
  /** Values sent instead of the comparable ones (e.g. the raw cost, compared as its numbers). */
  send?: Record<string, unknown>;
  /**
   * Values a Calendar Desk remote takes instead of those of `send` (an event's cost as typed and its own
   * currency fields, which it stores as they are: the same record on both, CONTRACT §2).
   */
  sendToCalendarDesk?: Record<string, unknown>;
  /** Events, venues and organizers: their picture, or null for none. Terms have no picture (undefined). */
  image?: LocalImage | null;
  /**
   * Events: the password that protects it ('' for none). Not compared (no remote shows it in its list):
   * sent with every create and update, so a protected event is never published open.
   */
  password?: string;
  /** Events of a series: how a remote that has series (a Calendar Desk) gets it as one. */
  series?: LocalSeriesPart;
  /**
   * Events with an amount in their cost: the currency it is shown in here (its own, else the calendar's), which a WordPress site
   * must show too; its plugin reads the currency from the cost text alone, and none from one with words.
   */
  shownCurrency?: RemoteCurrency;
}

/** Where an event stands in its series. */
export interface LocalSeriesPart {
  /** The local id of the series' head (its own id on the head). */
  headId: number;
  /** Its original start in the series (`recurrence_id`): what matches it with the remote's occurrence. */
  recurrenceId: string;
  /** Changed on its own (scope `this`): sent as such, not taken from the head's. */
  override: boolean;
  /** The head's RFC 5545 lines (on the head only). */
  lines?: string[];
}

/** A remote record, reduced to what the sync compares: wire fields with references as remote ids. */
export interface RemoteRecord {
  kind: SyncKind;
  id: number;
  slug: string;
  /** The record's uid when the remote shows one (a Calendar Desk): the same record on every instance. */
  uid?: string;
  modifiedUtc: string | null;
  etag: string | null;
  /**
   * Comparable fields (same names as {@link LocalRecord.fields}, references as remote ids). `image` is the
   * remote media id, present only when the record has a picture (so records without one hash as before).
   */
  fields: Record<string, unknown>;
  /**
   * The fingerprint of `fields` (compare.ts `contentHash`) when it is already known: a record taken as its link last
   * saw it, whose fields are the link's base. Hashing those again was a tenth of every sync at 10,000 events.
   */
  knownHash?: string;
  /** The address of the remote's picture (`image.url`), or null: matches a picture sent by address. */
  imageUrl?: string | null;
  /** An event of a remote series: its original start there (`recurrence_id`); null or absent otherwise. */
  recurrenceId?: string | null;
  /**
   * An event of a series on a remote that has series, not linked here yet: the remote id of its series' head
   * (its own id on the head). Found when the remote is read (see remoteSeries.ts); absent otherwise.
   */
  seriesHeadId?: number;
  /** An event's, venue's or organizer's texts as written on the remote: what `remote-wins` takes over. */
  texts?: RemoteTexts;
}

/**
 * The title (event, venue or organizer name), description, and an event's excerpt and cost of a remote record as
 * written there: as a Calendar Desk answers them, or as WordPress stores them (its plugin shows them formatted).
 */
export interface RemoteTexts {
  title: string;
  description: string;
  excerpt?: string;
  cost?: string;
  /**
   * An event's own currency fields ('' = the site's default): as a Calendar Desk stores them
   * (`cost_details.currency_*`), or as WordPress does in the event's meta (its plugin's answer shows the site's
   * currency where the event has none: never read from there).
   */
  currency?: RemoteCurrency;
  /** Whether `cost` is exactly as typed there (a Calendar Desk); WordPress' plugin may format it again. */
  costAsTyped?: boolean;
}

/** An event's own currency on a Calendar Desk remote, as its API's `cost_details` shows it. */
export interface RemoteCurrency {
  symbol: string;
  position: 'prefix' | 'postfix' | '';
  code: string;
}

export const linkSchema = z.object({
  kind: z.enum(SYNC_KINDS),
  localId: z.number().int().nonnegative(),
  /** null while a create was sent whose outcome is unknown (a crash or a lost answer): look it up first. */
  remoteId: z.number().int().nonnegative().nullable(),
  /** The local revision the remote holds (null: linked but never pushed, e.g. a conflict left unresolved). */
  pushedRevision: z.number().int().nonnegative().nullable(),
  remoteModifiedUtc: z.string().nullable(),
  remoteEtag: z.string().nullable(),
  /** Hash of the remote's comparable fields when last seen: catches remotes without modified_utc (terms). */
  remoteHash: z.string().nullable(),
  /**
   * The comparable field values both sides agreed on at the last sync (the remote's terms: references as remote
   * ids): the base of the three-way merge. Absent in links written before two-way sync: no base, so a record
   * changed on both sides is one conflict as before.
   */
  base: z.record(z.string(), z.unknown()).optional(),
  /** A remote that names records by address (a CalDAV calendar): the record's href there. */
  remoteHref: z.string().optional(),
});
export type Link = z.infer<typeof linkSchema>;

/**
 * Which remote media item a local one became, per remote. Kept apart from the record links (a picture may be
 * used by several records) so a picture is uploaded once, and a re-sync sends its remote id.
 */
export const mediaLinkSchema = z.object({
  localId: z.number().int().nonnegative(),
  /** null while an upload was sent whose outcome is unknown (or a remote that kept no picture for an address). */
  remoteId: z.number().int().nonnegative().nullable(),
  /** The file name an upload was sent with while its outcome is unknown: looked up before uploading again. */
  pendingFile: z.string().nullable(),
});
export type MediaLink = z.infer<typeof mediaLinkSchema>;

/** What the data file keeps per remote under `syncLinks` (the links are entries of their own). */
export const remoteMetaSchema = z.object({
  root: z.string(),
  namespace: z.string(),
  lastSyncUtc: z.string().nullable(),
  /** Failures recorded on records by the last run: `kind:id` → message. */
  failures: z.record(z.string(), z.string()),
  /**
   * Another Calendar Desk only: where its change feed continues, as of the last two-way sync that finished
   * with nothing left open (no failure, no conflict). Absent: the next sync reads everything.
   */
  cursor: changeCursorSchema.optional(),
  /** A CalDAV calendar only: its sync token (RFC 6578) as of the last sync that left nothing open. */
  davToken: z.string().optional(),
});
export type RemoteMeta = z.infer<typeof remoteMetaSchema>;

export const linkKey = (kind: SyncKind, localId: number) => `${kind}:${localId}`;

export interface Plan {
  operations: Operation[];
  /** Conflicts the policy left open (`ask` and `skip`): nothing is done to these records. */
  conflicts: Conflict[];
}
