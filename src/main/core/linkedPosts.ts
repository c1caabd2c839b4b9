import { givenUid, newUid } from './uids';
import type { Language } from '../../shared/enums';
import { shapeOfRows, type FieldRow, type InputOfRows } from '../../shared/fields/table';
import { VENUE_TEXT_FIELDS } from '../../shared/fields/venue';
import { ORGANIZER_TEXT_FIELDS } from '../../shared/fields/organizer';
import type { CalendarStore, Transaction } from '../store/store';
import type { StoredOrganizer, StoredVenue } from '../store/schema';
import { canChangePost, canEditPosts, type MaybeCaller } from './capabilities';
import { touchLinkedEvents } from './eventLinks';
import { foldedForMatch } from './linkedPostMatch';
import { sanitizeRichText, toPlainText } from './html';
import { postSlug, publicationDateUtc, resolveImage, nowUtc, trashedSlug, untrashedSlug } from './posts';
import { isTruthy } from './values';
import { withinWriteBudget } from './writeBudget';
import { givenStatus, refuseUnless, WriteRefused, type RecordWriteCall, type WriteCall } from './writes';

/** Arguments of a venue write, as validated (every key optional on update). */
export interface VenueInput extends InputOfRows<typeof VENUE_TEXT_FIELDS> {
  venue?: string;
  /** Create only: the uid an administrator's sync brings from another Calendar Desk (core/uids `givenUid`). */
  uid?: string;
  author?: number;
  date?: string | number;
  date_utc?: string | number;
  description?: string;
  status?: string;
  show_map?: string | boolean | number | null;
  show_map_link?: string | boolean | number | null;
  image?: string | number | null;
  geo_lat?: number | '' | null;
  geo_lng?: number | '' | null;
}

export interface OrganizerInput extends InputOfRows<typeof ORGANIZER_TEXT_FIELDS> {
  organizer?: string;
  /** Create only: the uid an administrator's sync brings from another Calendar Desk (core/uids `givenUid`). */
  uid?: string;
  author?: number;
  date?: string | number;
  date_utc?: string | number;
  description?: string;
  status?: string;
  image?: string | number | null;
}

export interface WriteContext {
  tx: Transaction;
  store: CalendarStore;
  caller: MaybeCaller;
  now: Date;
  language: Language;
}

const text = (value: string | null | undefined) => toPlainText(value ?? '');

/**
 * A table's fields after a write (true patch): each one sent written as its row's type says (plain text; a URL
 * only trimmed), the others kept from `base`.
 */
function writtenRows<const Rows extends readonly FieldRow<string>[]>(
  rows: Rows,
  input: InputOfRows<Rows>,
  base: { [R in Rows[number] as R['stored']]: string },
): { [R in Rows[number] as R['stored']]: string } {
  const sent = input as Record<string, string | null | undefined>;
  const kept = base as Record<string, string>;
  const written: Record<string, string> = {};
  for (const row of rows) {
    const value = sent[row.wire];
    written[row.stored] =
      value === undefined ? kept[row.stored]! : row.type === 'url' ? (value ?? '').trim() : text(value);
  }
  return written as { [R in Rows[number] as R['stored']]: string };
}

/** Venue show_map flags: true unless a falsy word is sent (REFERENCE §5.7). */
const venueFlag = (value: unknown) =>
  value === undefined || value === null || value === '' || isTruthy(value);

/**
 * `stateprovince` derived when none is given (REFERENCE §5.7, `Tribe__Events__Venue::save_meta`): the state
 * when there is one and the country is empty, `US` or `United States`; else the province; else `''`.
 */
function derivedStateProvince(venue: Pick<StoredVenue, 'state' | 'province' | 'country'>): string {
  const country = venue.country.trim();
  const usa = country === '' || country === 'US' || country === 'United States';
  return usa && venue.state ? venue.state : venue.province;
}

const coordinate = (value: number | '' | null | undefined, previous: number | null) =>
  value === undefined ? previous : value === '' || value === null ? null : value;

/** Applies sent venue fields onto `base` (true patch: absent fields are kept). */
export function applyVenueInput(base: StoredVenue, input: VenueInput, context: WriteContext): StoredVenue {
  const { tx, store, now } = context;
  const has = (key: keyof VenueInput) => input[key] !== undefined;
  const venue: StoredVenue = {
    ...base,
    name: has('venue') ? text(input.venue) : base.name,
    description: has('description') ? sanitizeRichText(input.description ?? '') : base.description,
    ...writtenRows(VENUE_TEXT_FIELDS, input, base),
    showMap: has('show_map') ? venueFlag(input.show_map) : base.showMap,
    showMapLink: has('show_map_link') ? venueFlag(input.show_map_link) : base.showMapLink,
    imageId: has('image') ? resolveImage(tx, store, input.image, base.authorId, now) : base.imageId,
    geoLat: coordinate(input.geo_lat, base.geoLat),
    geoLng: coordinate(input.geo_lng, base.geoLng),
  };
  if (venue.geoLat === null || venue.geoLng === null) {
    venue.geoLat = null;
    venue.geoLng = null;
  }
  // A sent value wins; none (or '') derives it. When absent on an update, a value that was derived from the
  // old fields follows the new ones, while one the user chose stays (true patch).
  if (!venue.stateprovince) venue.stateprovince = derivedStateProvince(venue);
  else if (!has('stateprovince') && base.stateprovince === derivedStateProvince(base)) {
    venue.stateprovince = derivedStateProvince(venue);
  }
  return venue;
}

export function applyOrganizerInput(
  base: StoredOrganizer,
  input: OrganizerInput,
  context: WriteContext,
): StoredOrganizer {
  const has = (key: keyof OrganizerInput) => input[key] !== undefined;
  return {
    ...base,
    name: has('organizer') ? text(input.organizer) : base.name,
    description: has('description') ? sanitizeRichText(input.description ?? '') : base.description,
    ...writtenRows(ORGANIZER_TEXT_FIELDS, input, base),
    imageId: has('image')
      ? resolveImage(context.tx, context.store, input.image, base.authorId, context.now)
      : base.imageId,
  };
}

/** Post fields shared by a new venue or organizer. */
function newPostBase(kind: LinkedKind, input: VenueInput | OrganizerInput, context: WriteContext) {
  const created = nowUtc(context.now);
  const existing = kind === 'venue' ? context.store.venues.values() : context.store.organizers.values();
  const uid = givenUid(input.uid, context.caller, existing) ?? newUid();
  return {
    id: context.tx.nextPostId(),
    uid,
    authorId: input.author ?? context.caller?.userId ?? 0,
    status: givenStatus(context.caller, input.status),
    language: context.language,
    description: '',
    excerpt: '',
    imageId: null,
    password: '',
    parentId: 0,
    dateUtc: publicationDateUtc(input, context.store.settings.timezone, context.now) ?? created,
    modifiedUtc: created,
    revision: 1,
  };
}

/**
 * Duplicate avoidance on create (REFERENCE §5.7): a non-trashed post of the kind with the same name (and the
 * same description, when one is sent), compared case-insensitively. Names compare as the site's database
 * collation does (utf8mb4_unicode_ci: accents do not count either), by core/linkedPostMatch.ts' folding.
 */
function findDuplicate<T extends StoredVenue | StoredOrganizer>(
  posts: Iterable<T>,
  name: string,
  description: string | undefined,
): T | undefined {
  const wantedName = foldedForMatch(name);
  const wantedDescription =
    description === undefined ? undefined : sanitizeRichText(description).toLowerCase();
  for (const post of posts) {
    if (post.status === 'trash' || foldedForMatch(post.name) !== wantedName) continue;
    if (
      wantedDescription !== undefined &&
      wantedDescription !== '' &&
      post.description.toLowerCase() !== wantedDescription
    )
      continue;
    return post;
  }
  return undefined;
}

/**
 * What a create writes onto the duplicate it matched: the meta only (REFERENCE §5.7). The post itself (its
 * name as first written, description, status, author, dates) is left as it is.
 */
function metaOnly<T extends VenueInput | OrganizerInput>(input: T): T {
  const meta: Record<string, unknown> = { ...input };
  for (const key of ['venue', 'organizer', 'description', 'status', 'author', 'date', 'date_utc']) {
    delete meta[key];
  }
  return meta as T;
}

/**
 * How a create treats a record of the same name: re-used (the API's duplicate avoidance, on by default as the
 * original's `…_insert_avoid_duplicates` filter), or not, when the caller has already decided the record is new
 * (an import, which recognises venues by name and address: core/linkedPostMatch.ts).
 */
export interface CreateOptions {
  avoidDuplicates?: boolean;
}

/** Creates a venue, or re-uses and updates the duplicate it matches. Returns the stored venue. */
export function createVenue(
  input: VenueInput,
  context: WriteContext,
  { avoidDuplicates = true }: CreateOptions = {},
): StoredVenue {
  const { store, tx } = context;
  const duplicate =
    avoidDuplicates && findDuplicate(store.venues.values(), text(input.venue), input.description);
  if (duplicate) {
    const updated = {
      ...applyVenueInput(duplicate, metaOnly(input), context),
      modifiedUtc: nowUtc(context.now),
      revision: duplicate.revision + 1,
    };
    tx.putVenue(updated);
    return updated;
  }
  const base = newPostBase('venue', input, context);
  const empty: StoredVenue = {
    ...base,
    kind: 'venue',
    slug: '',
    name: '',
    ...shapeOfRows(VENUE_TEXT_FIELDS, 'stored', ''),
    showMap: true,
    showMapLink: true,
    geoLat: null,
    geoLng: null,
  };
  const venue = applyVenueInput(empty, input, context);
  venue.slug = postSlug(store, 'venue', venue.name, venue.id, `venue-${venue.id}`);
  tx.putVenue(venue);
  return venue;
}

/** Creates an organizer, or re-uses and updates the duplicate it matches. */
export function createOrganizer(
  input: OrganizerInput,
  context: WriteContext,
  { avoidDuplicates = true }: CreateOptions = {},
): StoredOrganizer {
  const { store, tx } = context;
  const duplicate =
    avoidDuplicates && findDuplicate(store.organizers.values(), text(input.organizer), input.description);
  if (duplicate) {
    const updated = {
      ...applyOrganizerInput(duplicate, metaOnly(input), context),
      modifiedUtc: nowUtc(context.now),
      revision: duplicate.revision + 1,
    };
    tx.putOrganizer(updated);
    return updated;
  }
  const empty: StoredOrganizer = {
    ...newPostBase('organizer', input, context),
    kind: 'organizer',
    slug: '',
    name: '',
    ...shapeOfRows(ORGANIZER_TEXT_FIELDS, 'stored', ''),
  };
  const organizer = applyOrganizerInput(empty, input, context);
  organizer.slug = postSlug(store, 'organizer', organizer.name, organizer.id, `organizer-${organizer.id}`);
  tx.putOrganizer(organizer);
  return organizer;
}

/*
 * Venue and organizer writes as one store change each (the API and the sync's pull call these). The
 * functions above are their steps inside a change (an event's inline venue, an import).
 */

type LinkedPost = StoredVenue | StoredOrganizer;
type LinkedKind = LinkedPost['kind'];

const postOf = (store: CalendarStore, kind: LinkedKind, id: number): LinkedPost | undefined =>
  kind === 'venue' ? store.venues.get(id) : store.organizers.get(id);

function putPost(tx: Transaction, post: LinkedPost): void {
  if (post.kind === 'venue') tx.putVenue(post);
  else tx.putOrganizer(post);
}

/** Creates a venue or organizer (or re-uses the duplicate it matches) for a caller who may create posts. */
export async function addLinkedPost(
  kind: LinkedKind,
  input: VenueInput | OrganizerInput,
  call: WriteCall & { language: Language },
  options: CreateOptions = {},
): Promise<LinkedPost> {
  refuseUnless(canEditPosts(call.caller), call.caller);
  return withinWriteBudget(call, (tx) => {
    const context = { ...call, tx };
    return kind === 'venue' ? createVenue(input, context, options) : createOrganizer(input, context, options);
  });
}

/**
 * Patches the venue or organizer `id` (which exists) for a caller who may edit it. The status is scaled
 * back as on create (REFERENCE §5.1); leaving or entering the trash changes what its events show.
 */
export async function changeLinkedPost(
  kind: LinkedKind,
  id: number,
  input: VenueInput | OrganizerInput,
  call: RecordWriteCall<LinkedPost>,
): Promise<LinkedPost> {
  const { store, caller, now } = call;
  const current = postOf(store, kind, id)!;
  refuseUnless(canChangePost(caller, current, 'edit'), caller);
  call.beforeWrite?.(current);
  return store.mutate((tx) => {
    const context = { tx, store, caller, now, language: current.language };
    const applied =
      current.kind === 'venue'
        ? applyVenueInput(current, input, context)
        : applyOrganizerInput(current, input, context);
    const updated: LinkedPost = {
      ...applied,
      dateUtc: publicationDateUtc(input, store.settings.timezone, now) ?? current.dateUtc,
      modifiedUtc: nowUtc(now),
      revision: current.revision + 1,
    };
    if (input.status !== undefined) updated.status = givenStatus(caller, input.status);
    if (input.author !== undefined) updated.authorId = input.author;
    if (
      current.status === 'trash' &&
      updated.status !== 'trash' &&
      (input as { slug?: unknown }).slug === undefined
    ) {
      updated.slug = untrashedSlug(store, updated);
    }
    // Restored (or trashed by a status change): its events show it again (or no longer).
    if ((current.status === 'trash') !== (updated.status === 'trash')) {
      touchLinkedEvents(tx, store, updated, updated.modifiedUtc);
    }
    putPost(tx, updated);
    return updated;
  });
}

/** Moves the venue or organizer `id` (which exists) to the trash; one already there is refused (410). */
export async function trashLinkedPost(
  kind: LinkedKind,
  id: number,
  call: RecordWriteCall<LinkedPost>,
): Promise<LinkedPost> {
  const { store, now } = call;
  const current = postOf(store, kind, id)!;
  refuseUnless(canChangePost(call.caller, current, 'delete'), call.caller);
  if (current.status === 'trash') {
    throw new WriteRefused(410, `${kind}-is-in-trash`, `The ${kind} is already trashed`);
  }
  call.beforeWrite?.(current);
  return store.mutate((tx) => {
    const modified = nowUtc(now);
    // Its events stop showing it (REFERENCE §5.7) but keep the link, so a restore brings it back.
    touchLinkedEvents(tx, store, current, modified);
    const trashed: LinkedPost = {
      ...current,
      status: 'trash',
      slug: trashedSlug(store, current),
      modifiedUtc: modified,
      revision: current.revision + 1,
    };
    putPost(tx, trashed);
    return trashed;
  });
}

/**
 * A venue or organizer takes the uid of the one it was found to be on a remote (the same name and address,
 * created offline on two computers): from then on both are one record everywhere. An administrator's sync only;
 * a uid another record of the kind has is not taken. Not an edit (no new revision): nothing else changes.
 */
export async function takeLinkedPostUid(
  kind: LinkedKind,
  id: number,
  uid: string,
  call: WriteCall,
): Promise<void> {
  const { store } = call;
  const current = postOf(store, kind, id);
  const records = kind === 'venue' ? store.venues.values() : store.organizers.values();
  const taken = givenUid(uid, call.caller, records);
  if (!current || !taken || current.uid === taken) return;
  await store.mutate((tx) => putPost(tx, { ...current, uid: taken }));
}
