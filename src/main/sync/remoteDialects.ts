import { z } from 'zod';
import { NAMESPACE } from '../../shared/enums';
import { shapeOfRows } from '../../shared/fields/table';
import { VENUE_TEXT_FIELDS } from '../../shared/fields/venue';
import { EVENT_FLAG_FIELDS, EVENT_TEXT_FIELDS } from '../../shared/fields/event';
import { ORGANIZER_TEXT_FIELDS } from '../../shared/fields/organizer';
import {
  costDetailsSchema,
  embeddedTermSchema,
  eventResponseSchema,
  imageSchema,
  organizerResponseSchema,
  termResponseSchema,
  venueResponseSchema,
} from '../../shared/schemas/records';
import type { SyncKind } from './model';

/**
 * The records a remote sends, as zod schemas: one set per dialect, each record kind as that remote writes it.
 * Whatever does not fit is a record the remote sent broken (issue 26, item 10): it fails alone, never stored as
 * junk. The schemas validate only; `remoteRecords.ts` turns what they accepted into the planner's records.
 *
 * - `calendar-desk`: another Calendar Desk (`cal/events/v1`) answers with our own response schemas
 *   (`src/shared/schemas/records.ts`, the single source), read with `context=edit`. Only the fields a sync reads
 *   are checked, records and embedded ones accept keys they do not know (a newer version may add fields), and
 *   the fields older versions did not have yet (uids, series, the event's own currency) may be absent.
 * - `wordpress`: The Events Calendar's `tribe/events/v1` (REFERENCE §3, the recorded answers of
 *   test/fixtures/original): venues and organizers leave out every empty value (§3.5, §3.6), a password-protected
 *   record comes blanked (§6.4: `null` flags, `[]` for a name or a list), pictures are `false` for none,
 *   statuses are whatever the site has (a status this calendar lacks fails when the record is pulled).
 */
export type RemoteDialect = 'calendar-desk' | 'wordpress';

/** The dialect a remote speaks, by the namespace it is synced through. */
export const dialectOf = (namespace: string): RemoteDialect =>
  namespace.replace(/^\/|\/$/g, '') === NAMESPACE ? 'calendar-desk' : 'wordpress';

// ---------------------------------------------------------------------------------------------- Calendar Desk

/** An embedded record (venue, organizer, term) of a Calendar Desk event, read for its id only. */
const idOnly = <S extends z.ZodObject<{ id: z.ZodNumber }>>(schema: S) => schema.pick({ id: true }).loose();

/** Fields a Calendar Desk answer has had only since some version: absent from an older remote's. */
const newerPostFields = { uid: true, modified_utc: true } as const;

const calendarDeskEvent = eventResponseSchema
  .pick({
    id: true,
    slug: true,
    uid: true,
    status: true,
    ...shapeOfRows(EVENT_TEXT_FIELDS, 'wire', true),
    all_day: true,
    start_date: true,
    end_date: true,
    timezone: true,
    cost: true,
    website: true,
    ...shapeOfRows(EVENT_FLAG_FIELDS, 'wire', true),
    image: true,
    modified_utc: true,
    recurrence: true,
    recurrence_id: true,
  })
  .extend({
    cost_details: costDetailsSchema
      .partial({ currency_symbol: true, currency_code: true, currency_position: true })
      .loose(),
    venue: z.union([idOnly(venueResponseSchema), z.array(z.never())]),
    organizer: z.array(idOnly(organizerResponseSchema)),
    categories: z.array(idOnly(embeddedTermSchema)),
    tags: z.array(idOnly(embeddedTermSchema)),
  })
  .partial({ ...newerPostFields, recurrence: true, recurrence_id: true })
  .loose();

const calendarDeskVenue = venueResponseSchema
  .pick({
    id: true,
    slug: true,
    uid: true,
    status: true,
    venue: true,
    description: true,
    ...shapeOfRows(VENUE_TEXT_FIELDS, 'wire', true),
    show_map: true,
    show_map_link: true,
    geo_lat: true,
    geo_lng: true,
    image: true,
    modified_utc: true,
  })
  .partial(newerPostFields)
  .loose();

const calendarDeskOrganizer = organizerResponseSchema
  .pick({
    id: true,
    slug: true,
    uid: true,
    status: true,
    organizer: true,
    description: true,
    ...shapeOfRows(ORGANIZER_TEXT_FIELDS, 'wire', true),
    image: true,
    modified_utc: true,
  })
  .partial(newerPostFields)
  .loose();

const calendarDeskTerm = termResponseSchema
  .pick({ id: true, slug: true, uid: true, name: true, description: true, parent: true })
  .partial({ uid: true })
  .loose();

// -------------------------------------------------------------------------------------------------- WordPress

/** Dates as the plugin writes them everywhere (REFERENCE §3): `Y-m-d H:i:s`, the shared schema's. */
const wpDate = eventResponseSchema.shape.start_date;
/** A post's id (WordPress' ids start at 1). */
const wpId = z.number().int().positive();
/** A text the plugin sends: a post's title or content through WordPress' filters, or raw meta. */
const wpText = z.string();
/** A flag (§3.1), `null` when blanked by password protection (§6.4). */
const wpFlag = z.boolean().nullable();
/** A record another refers to, read for its id. */
const wpRef = z.looseObject({ id: wpId });
/** A featured image (§3.4): `{url, id, extension, …}`, or `false` for none. */
const wpImage = z.union([z.literal(false), imageSchema.pick({ id: true, url: true }).loose()]);
/** A coordinate (Pro's geocoding): a number, or the number as its meta holds it. */
const wpCoordinate = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)]);

const wordpressEvent = z.looseObject({
  id: wpId,
  slug: z.string().optional(),
  status: z.string().optional(),
  title: wpText,
  description: wpText.optional(),
  excerpt: wpText.optional(),
  image: wpImage.optional(),
  all_day: wpFlag.optional(),
  // `null` on a post the plugin never finished (PHP stopped after the post, before its meta): read as no date, so
  // the sync finds it by slug, adopts it and completes it rather than creating the event twice.
  start_date: wpDate.nullable(),
  end_date: wpDate.nullable(),
  timezone: wpText.optional(),
  cost: wpText.optional(),
  // §3.3; blanked: every part empty.
  cost_details: z
    .looseObject({
      currency_symbol: wpText.optional(),
      currency_code: wpText.optional(),
      currency_position: wpText.optional(),
      values: costDetailsSchema.shape.values,
    })
    .optional(),
  website: wpText.optional(),
  ...shapeOfRows(EVENT_FLAG_FIELDS, 'wire', wpFlag.optional()),
  categories: z.array(wpRef).optional(),
  tags: z.array(wpRef).optional(),
  // One venue, none (`[]`), or several (Pro): only a single one is synced.
  venue: z.union([wpRef, z.array(wpRef)]).optional(),
  organizer: z.array(wpRef).optional(),
  modified_utc: wpDate.optional(),
});

/** A venue's or organizer's name: text, or `[]` when the record is password-protected (§6.4). */
const wpName = z.union([wpText, z.array(z.never())]);

const wordpressVenue = z.looseObject({
  id: wpId,
  slug: z.string().optional(),
  status: z.string().optional(),
  venue: wpName.optional(),
  description: wpText.optional(),
  ...shapeOfRows(VENUE_TEXT_FIELDS, 'wire', wpText.optional()),
  show_map: wpFlag.optional(),
  show_map_link: wpFlag.optional(),
  geo_lat: wpCoordinate.optional(),
  geo_lng: wpCoordinate.optional(),
  image: wpImage.optional(),
  modified_utc: wpDate.optional(),
});

const wordpressOrganizer = z.looseObject({
  id: wpId,
  slug: z.string().optional(),
  status: z.string().optional(),
  organizer: wpName.optional(),
  description: wpText.optional(),
  ...shapeOfRows(ORGANIZER_TEXT_FIELDS, 'wire', wpText.optional()),
  image: wpImage.optional(),
  modified_utc: wpDate.optional(),
});

/** §3.8 (and §3.7 embedded): `parent` on categories only. */
const wordpressTerm = z.looseObject({
  id: wpId,
  slug: z.string().optional(),
  name: wpText,
  description: wpText.optional(),
  parent: z.number().int().nonnegative().optional(),
});

/** Each kind as each dialect sends it. */
export const REMOTE_RECORD_SCHEMAS = {
  'calendar-desk': {
    event: calendarDeskEvent,
    venue: calendarDeskVenue,
    organizer: calendarDeskOrganizer,
    category: calendarDeskTerm,
    tag: calendarDeskTerm,
  },
  wordpress: {
    event: wordpressEvent,
    venue: wordpressVenue,
    organizer: wordpressOrganizer,
    category: wordpressTerm,
    tag: wordpressTerm,
  },
} satisfies Record<RemoteDialect, Record<SyncKind, z.ZodType>>;

export type CalendarDeskEventAnswer = z.infer<typeof calendarDeskEvent>;
export type RemoteEventAnswer = z.infer<typeof calendarDeskEvent> | z.infer<typeof wordpressEvent>;
export type RemoteVenueAnswer = z.infer<typeof calendarDeskVenue> | z.infer<typeof wordpressVenue>;
export type RemoteOrganizerAnswer =
  z.infer<typeof calendarDeskOrganizer> | z.infer<typeof wordpressOrganizer>;
export type RemoteTermAnswer = z.infer<typeof calendarDeskTerm> | z.infer<typeof wordpressTerm>;
