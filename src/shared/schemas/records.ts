import { z } from 'zod';
import { LANGUAGES, POST_STATUSES } from '../enums';
import { EVENT_FLAG_FIELDS, EVENT_TEXT_FIELDS } from '../fields/event';
import { shapeOfRows } from '../fields/table';

/**
 * The records the API returns, as zod schemas: the OpenAPI document is generated from them and the tests
 * parse real responses with them (strictly), so the documentation cannot drift from the server.
 */

const sqlDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .describe('Y-m-d H:i:s');

export const dateDetailsSchema = z
  .strictObject({
    year: z.string(),
    month: z.string(),
    day: z.string(),
    hour: z.string(),
    minutes: z.string(),
    seconds: z.string(),
  })
  .meta({ id: 'DateDetails', description: 'Parts of a date, as zero-padded strings' });

export const imageSchema = z
  .strictObject({ url: z.string(), id: z.number().int(), extension: z.string() })
  .meta({ id: 'Image', description: 'A featured image: the media item id, its URL and file extension' });

export const costDetailsSchema = z
  .strictObject({
    currency_symbol: z.string().describe("The event's own currency symbol, '' when the site default applies"),
    currency_code: z.string().describe("The event's own ISO 4217 code, '' when the site default applies"),
    currency_position: z.enum(['prefix', 'postfix', '']),
    values: z.array(z.string()).describe('Cost values as numeric strings, ascending'),
  })
  .meta({ id: 'CostDetails', description: 'The cost as currency settings and numeric values' });

const termUrls = z.strictObject({ self: z.string(), collection: z.string(), up: z.string().optional() });
const language = z.enum(LANGUAGES);
const uid = z
  .uuid()
  .describe(
    "The record's identity across calendars (CONTRACT §2): read-only, kept by exports, imports and sync; an event's .ics UID",
  );
const jsonLd = z.record(z.string(), z.unknown()).describe('schema.org data (single reads only)');

export const embeddedTermSchema = z
  .strictObject({
    name: z.string(),
    slug: z.string(),
    term_group: z.number().int(),
    term_taxonomy_id: z.number().int(),
    taxonomy: z.enum(['tribe_events_cat', 'post_tag']),
    description: z.string(),
    parent: z.number().int(),
    count: z.number().int(),
    filter: z.literal('raw'),
    id: z.number().int(),
    urls: termUrls,
    language,
    uid,
  })
  .meta({ id: 'EmbeddedTerm', description: 'A category or tag as embedded in an event' });

export const termResponseSchema = z
  .strictObject({
    id: z.number().int(),
    count: z.number().int(),
    description: z.string(),
    name: z.string(),
    slug: z.string(),
    taxonomy: z.enum(['tribe_events_cat', 'post_tag']),
    parent: z.number().int().optional().describe('Categories only'),
    meta: z.array(z.unknown()),
    url: z.string(),
    urls: termUrls,
    language,
    uid,
    _links: z.record(z.string(), z.unknown()).optional().describe('Single-term responses only'),
  })
  .meta({ id: 'Term', description: 'An event category or event tag as /categories and /tags return it' });

const postHeader = {
  id: z.number().int(),
  author: z.string().optional().describe('Author id as a numeric string'),
  status: z.enum(POST_STATUSES).optional(),
  date: sqlDate.optional(),
  date_utc: sqlDate.optional(),
  modified: sqlDate.optional(),
  modified_utc: sqlDate.optional(),
  url: z.string().optional(),
};

/** Venue: empty fields are omitted (REFERENCE §3.5); a protected venue has its fields blanked. */
export const venueResponseSchema = z
  .strictObject({
    ...postHeader,
    venue: z.union([z.string(), z.array(z.never())]).optional(),
    description: z.string().optional(),
    excerpt: z.string().optional(),
    slug: z.string().optional(),
    image: z.union([imageSchema, z.literal(false)]).optional(),
    address: z.string().optional(),
    city: z.string().optional(),
    country: z.string().optional(),
    province: z.string().optional(),
    state: z.string().optional(),
    zip: z.string().optional(),
    phone: z.string().optional(),
    website: z.string().optional(),
    stateprovince: z.string().optional(),
    geo_lat: z.number().optional(),
    geo_lng: z.number().optional(),
    json_ld: jsonLd.optional(),
    show_map: z.boolean().nullable(),
    show_map_link: z.boolean().nullable(),
    global_id: z.string(),
    global_id_lineage: z.array(z.string()),
    language,
    uid,
  })
  .meta({
    id: 'Venue',
    description: 'A venue; empty fields are left out, a password-protected venue has its fields blanked',
  });

export const organizerResponseSchema = z
  .strictObject({
    ...postHeader,
    organizer: z.union([z.string(), z.array(z.never())]).optional(),
    description: z.string().optional(),
    excerpt: z.string().optional(),
    slug: z.string().optional(),
    image: z.union([imageSchema, z.literal(false)]).optional(),
    phone: z.string().optional(),
    website: z.string().optional(),
    email: z.string().optional(),
    json_ld: jsonLd.optional(),
    global_id: z.string(),
    global_id_lineage: z.array(z.string()),
    language,
    uid,
  })
  .meta({ id: 'Organizer', description: 'An organizer; empty fields are left out' });

const nullableFlag = z.boolean().nullable().describe('null when blanked by password protection');

export const eventResponseSchema = z
  .strictObject({
    id: z.number().int(),
    global_id: z.string(),
    global_id_lineage: z.array(z.string()),
    author: z.string(),
    status: z.enum(POST_STATUSES),
    date: sqlDate,
    date_utc: sqlDate,
    modified: sqlDate,
    modified_utc: sqlDate,
    url: z.string(),
    rest_url: z.string(),
    ...shapeOfRows(EVENT_TEXT_FIELDS, 'wire', z.string()),
    slug: z.string(),
    image: z.union([imageSchema, z.literal(false)]),
    all_day: nullableFlag,
    start_date: sqlDate,
    start_date_details: dateDetailsSchema,
    end_date: sqlDate,
    end_date_details: dateDetailsSchema,
    utc_start_date: sqlDate,
    utc_start_date_details: dateDetailsSchema,
    utc_end_date: sqlDate,
    utc_end_date_details: dateDetailsSchema,
    timezone: z.string(),
    timezone_abbr: z.string(),
    cost: z
      .string()
      .describe('The cost formatted with its currency; with context=edit, to those who may edit, as typed'),
    cost_details: costDetailsSchema,
    website: z.string(),
    ...shapeOfRows(EVENT_FLAG_FIELDS, 'wire', nullableFlag),
    categories: z.array(embeddedTermSchema),
    tags: z.array(embeddedTermSchema),
    venue: z.union([venueResponseSchema, z.array(z.never())]).describe('The venue, or [] when none'),
    organizer: z.array(organizerResponseSchema),
    custom_fields: z.array(z.unknown()),
    language,
    uid,
    recurrence: z
      .array(z.string())
      .describe(
        "The series' RFC 5545 lines (RRULE, RDATE, EXDATE); [] for a single event; an occurrence shows its series' (read-only)",
      ),
    recurrence_id: sqlDate
      .nullable()
      .describe(
        "The event's original start in its series (wall clock in its time zone); null for a single event",
      ),
    ticketed: nullableFlag,
    json_ld: jsonLd.optional(),
  })
  .meta({
    id: 'Event',
    description:
      'An event; json_ld only on single reads; a password-protected event read without its password has its content blanked',
  });

const archive = <K extends string, S extends z.ZodType>(key: K, item: S) =>
  z.strictObject({
    // A computed key is typed as a plain string by TypeScript: said here to be the one key `K`.
    ...({ [key]: z.array(item) } as { [P in K]: z.ZodArray<S> }),
    rest_url: z.string(),
    next_rest_url: z.string().optional(),
    previous_rest_url: z.string().optional(),
    total: z.number().int(),
    total_pages: z.number().int(),
  });

export const eventArchiveSchema = archive('events', eventResponseSchema).meta({
  id: 'EventArchive',
  description: 'A page of events (totals also in X-WP-Total / X-WP-TotalPages)',
});
export const venueArchiveSchema = archive('venues', venueResponseSchema).meta({
  id: 'VenueArchive',
  description: 'A page of venues',
});
export const organizerArchiveSchema = archive('organizers', organizerResponseSchema).meta({
  id: 'OrganizerArchive',
  description: 'A page of organizers',
});
export const categoryArchiveSchema = archive('categories', termResponseSchema).meta({
  id: 'CategoryArchive',
  description: 'A page of event categories',
});
export const tagArchiveSchema = archive('tags', termResponseSchema).meta({
  id: 'TagArchive',
  description: 'A page of event tags',
});

export const errorSchema = z
  .strictObject({
    code: z.string(),
    message: z.string(),
    data: z.looseObject({ status: z.number().int() }),
  })
  .meta({ id: 'Error', description: "WordPress' REST error: a code, a message and data.status" });

export type EventResponse = z.infer<typeof eventResponseSchema>;
export type VenueResponse = z.infer<typeof venueResponseSchema>;
export type OrganizerResponse = z.infer<typeof organizerResponseSchema>;
export type TermResponse = z.infer<typeof termResponseSchema>;
