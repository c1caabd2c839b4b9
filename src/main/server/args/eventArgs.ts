import { z } from 'zod';
import { isTime } from '../../core/dates/strtotime';
import { canEditPosts } from '../../core/capabilities';
import { arg, optionalAll, type CheckContext } from './define';
import {
  authorArg,
  dateValue,
  imageArg,
  imageCheck,
  isHttpUrl,
  pageArg,
  perPageArg,
  postStatusArg,
  publicationDateArgs,
  statusFilterArg,
  timezoneCheck,
  uidArg,
  withoutUid,
} from './common';
import { linkedPostEntryCheck } from './linkedPostArgs';
import {
  idList,
  nonEmptyString,
  positiveInt,
  scalarList,
  stringOrEmpty,
  termRefList,
  untyped,
  wpBoolean,
  wpInteger,
  wpNumber,
  wpString,
} from './wpTypes';
import { existingTerms } from './termArgs';
import { eventCurrencySchemas } from '../../../shared/schemas/currency';
import { SERIES_SCOPES } from '../../core/eventRecord';
import { recurrenceLinesSchema } from '../../core/recurrence/lines';

const postsExist =
  (kind: 'venue' | 'organizer') =>
  (ids: number[], { store }: CheckContext) =>
    ids.every((id) => (kind === 'venue' ? store.venues.has(id) : store.organizers.has(id)));

const dateFilter = (description: string) =>
  arg(dateValue(), { description, in: 'query' }, (value) => isTime(value));

/** `GET /events` (REFERENCE §2.1), plus our extensions `show_hidden` and `geoloc_radius`. */
export const eventArchiveArgs = {
  page: pageArg(),
  per_page: perPageArg('events'),
  start_date: dateFilter('Events that start on the specified date'),
  end_date: dateFilter('Events that end on the specified date'),
  starts_before: dateFilter('Events that start before the specified date'),
  starts_after: dateFilter('Events that start after the specified date'),
  ends_before: dateFilter('Events that end before the specified date'),
  ends_after: dateFilter('Events that end after the specified date'),
  strict_dates: arg(nonEmptyString(), {
    description:
      'Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.',
    default: 'false',
    in: 'query',
  }),
  search: arg(nonEmptyString(), {
    description: 'Events should contain the specified string in the title or description',
    type: 'string',
    in: 'query',
  }),
  categories: arg(
    termRefList(),
    {
      description: 'Events should be assigned one of the specified categories slugs or IDs',
      items: { type: 'integer' },
      in: 'query',
    },
    existingTerms('category'),
  ),
  tags: arg(
    termRefList(),
    {
      description: 'Events should be assigned one of the specified tags slugs or IDs',
      items: { type: 'integer' },
      in: 'query',
    },
    existingTerms('tag'),
  ),
  venue: arg(
    idList(),
    {
      description: 'Events should be assigned one of the specified venue IDs',
      items: { type: 'integer' },
      in: 'query',
    },
    postsExist('venue'),
  ),
  organizer: arg(
    idList(),
    {
      description: 'Events should be assigned one of the specified organizer IDs',
      items: { type: 'integer' },
      in: 'query',
    },
    postsExist('organizer'),
  ),
  featured: arg(wpBoolean(), {
    description: 'Events should be filtered by their featured status',
    type: 'boolean',
    in: 'query',
  }),
  status: statusFilterArg('The event post status'),
  geoloc: arg(wpBoolean(), {
    description: 'Events should be filtered by whether their venue has geolocation data',
    type: 'boolean',
    in: 'query',
  }),
  geoloc_lat: arg(
    wpNumber().pipe(z.number().min(-90).max(90)),
    {
      description: 'Events should be filtered by their venue latitude location, must also provide geoloc_lng',
      format: 'double',
      in: 'query',
    },
    (_value, { raw }) => raw.geoloc_lng !== undefined || 'geoloc_lat must be sent together with geoloc_lng.',
  ),
  geoloc_lng: arg(
    wpNumber().pipe(z.number().min(-180).max(180)),
    {
      description:
        'Events should be filtered by their venue longitude location, must also provide geoloc_lat',
      format: 'double',
      in: 'query',
    },
    (_value, { raw }) => raw.geoloc_lat !== undefined || 'geoloc_lng must be sent together with geoloc_lat.',
  ),
  geoloc_radius: arg(wpNumber().pipe(z.number().positive().max(20_000)), {
    description:
      'Distance in kilometres from geoloc_lat/geoloc_lng within which the venue must lie (default 25)',
    format: 'double',
    in: 'query',
    extension: true,
  }),
  include: arg(idList(), {
    description:
      'Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.',
    items: { type: 'integer' },
    in: 'query',
  }),
  post_parent: arg(
    wpInteger(),
    {
      description: 'Events should be filtered by their post_parent being the specified one.',
      type: 'integer',
      in: 'query',
    },
    (id, { store }) => store.events.has(id),
  ),
  ticketed: arg(wpBoolean(), {
    description: 'Filter events with or without tickets.',
    type: 'boolean',
    in: 'query',
  }),
  show_hidden: arg(
    wpBoolean(),
    {
      description: 'Also list events hidden from listings (users who can edit events only)',
      type: 'boolean',
      in: 'query',
      extension: true,
    },
    (show, { caller }) =>
      !show || canEditPosts(caller) || 'Only users who can edit events may list hidden events.',
  ),
};

const websiteCheck = (value: unknown) =>
  value === null || value === '' || (typeof value === 'string' && isHttpUrl(value.trim()));

const booleanField = (description: string) => arg(wpBoolean(), { description, type: 'boolean', in: 'body' });

/** Create arguments of `POST /events` (REFERENCE §2.2), plus `ticketed` and `post_password`. */
export const eventCreateArgs = {
  author: authorArg('event'),
  ...publicationDateArgs('event'),
  title: arg(nonEmptyString(), {
    description: 'The event title',
    type: 'string',
    required: true,
    in: 'body',
  }),
  description: arg(nonEmptyString(), { description: 'The event description', type: 'string', in: 'body' }),
  slug: arg(nonEmptyString(), { description: 'The event slug', type: 'string', in: 'body' }),
  excerpt: arg(nonEmptyString(), { description: 'The event excerpt', type: 'string', in: 'body' }),
  status: postStatusArg('event'),
  timezone: arg(
    wpString(),
    { description: 'The event time zone', type: 'string', in: 'body' },
    timezoneCheck,
  ),
  all_day: arg(wpBoolean(), {
    description: 'Whether the event lasts the whole day or not',
    type: 'boolean',
    default: false,
    in: 'body',
  }),
  start_date: arg(
    dateValue(),
    { description: 'The event start date and time', type: 'string', required: true, in: 'body' },
    (value) => isTime(value),
  ),
  end_date: arg(
    dateValue(),
    { description: 'The event end date and time', type: 'string', required: true, in: 'body' },
    (value) => isTime(value),
  ),
  image: imageArg('event'),
  cost: arg(z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()])), z.null()]), {
    description: 'The event cost',
    in: 'body',
  }),
  currency_symbol: arg(eventCurrencySchemas.symbol, {
    description:
      'The currency symbol of the cost ("" or null: the one in the cost text, else the site default)',
    type: 'string',
    in: 'body',
    extension: true,
  }),
  currency_position: arg(eventCurrencySchemas.position, {
    description:
      'Where the currency symbol goes: prefix or postfix ("" or null: as in the cost text, else the site default)',
    type: 'string',
    in: 'body',
    extension: true,
  }),
  currency_code: arg(eventCurrencySchemas.code, {
    description: 'The ISO 4217 currency code of the cost, e.g. EUR ("" or null: the site default)',
    type: 'string',
    in: 'body',
    extension: true,
  }),
  website: arg(untyped(), { description: 'The event website URL', default: null, in: 'body' }, websiteCheck),
  show_map: booleanField('Whether the event should show a map or not'),
  show_map_link: booleanField('Whether the event should show a map link or not'),
  hide_from_listings: booleanField('Whether events should be hidden in the calendar view or not'),
  sticky: booleanField('Whether the event should be sticky in the calendar view or not'),
  featured: booleanField('Whether the event should be featured on the site or not'),
  ticketed: arg(wpBoolean(), {
    description: 'Whether the event has tickets',
    type: 'boolean',
    in: 'body',
    extension: true,
  }),
  categories: arg(scalarList(), {
    description: 'The event category ID or name',
    default: null,
    items: { type: 'integer' },
    in: 'body',
  }),
  tags: arg(scalarList(), {
    description: 'The event tag ID or name',
    default: null,
    items: { type: 'integer' },
    in: 'body',
  }),
  venue: arg(
    untyped(),
    { description: 'The event venue IDs or data', default: null, items: { type: 'integer' }, in: 'body' },
    linkedPostEntryCheck('venue'),
  ),
  organizer: arg(
    untyped(),
    { description: 'The event organizer IDs or data', default: null, items: { type: 'integer' }, in: 'body' },
    linkedPostEntryCheck('organizer'),
  ),
  post_password: arg(stringOrEmpty(), {
    description: 'The password that protects the event ("" removes it)',
    type: 'string',
    in: 'body',
    extension: true,
  }),
  uid: uidArg(),
  recurrence: arg(recurrenceLinesSchema, {
    description:
      'Makes the event repeat: RFC 5545 lines (RRULE, RDATE, EXDATE), e.g. ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8"]; [] stops it repeating',
    type: 'array',
    items: { type: 'string' },
    in: 'body',
    extension: true,
  }),
};

/** `scope` of a change to an event of a series: which of its events the change applies to. */
const scopeArg = (where: 'body' | 'query', what: string) =>
  arg(z.enum(SERIES_SCOPES, { error: '%s must be this, following or all.' }), {
    description: `For an event of a repeating series, which events ${what}: this (the default), following (this and the later ones) or all`,
    type: 'string',
    default: 'this',
    applyDefault: false,
    in: where,
    extension: true,
  });

const clearable = <S extends z.ZodType>(schema: S) => z.union([schema, z.literal(''), z.null()]);

/**
 * Update arguments: every create argument optional, no defaults applied (updates are true patches,
 * CONTRACT §3), and optional texts clearable with `''` or `null`.
 */
export const eventUpdateArgs = {
  ...optionalAll(withoutUid(eventCreateArgs)),
  description: arg(clearable(wpString()), {
    description: 'The event description',
    type: 'string',
    in: 'body',
  }),
  excerpt: arg(clearable(wpString()), { description: 'The event excerpt', type: 'string', in: 'body' }),
  all_day: arg(wpBoolean(), {
    description: 'Whether the event lasts the whole day or not',
    type: 'boolean',
    in: 'body',
  }),
  website: arg(untyped(), { description: 'The event website URL', in: 'body' }, websiteCheck),
  categories: arg(scalarList(), {
    description: 'The event category ID or name',
    items: { type: 'integer' },
    in: 'body',
  }),
  tags: arg(scalarList(), {
    description: 'The event tag ID or name',
    items: { type: 'integer' },
    in: 'body',
  }),
  venue: arg(
    untyped(),
    { description: 'The event venue IDs or data', items: { type: 'integer' }, in: 'body' },
    linkedPostEntryCheck('venue'),
  ),
  organizer: arg(
    untyped(),
    { description: 'The event organizer IDs or data', items: { type: 'integer' }, in: 'body' },
    linkedPostEntryCheck('organizer'),
  ),
  image: arg(
    z.union([wpString(), z.number().int(), z.null()]),
    { description: 'The event featured image ID or URL', type: 'string', in: 'body' },
    imageCheck,
  ),
  scope: scopeArg('body', 'the change applies to'),
};

export const eventIdArgs = {
  id: arg(wpInteger(), { description: 'the event post ID', type: 'integer', required: true, in: 'path' }),
  password: arg(nonEmptyString(), { description: 'The event password', type: 'string', in: 'query' }),
};

/** `DELETE /events/{id}` (and by slug): the event, and in a series which of its events go to the trash. */
export const eventDeleteArgs = {
  ...eventIdArgs,
  scope: scopeArg('query', 'go to the trash'),
};

export const eventSlugArgs = {
  slug: arg(
    wpString(),
    { description: 'the event post name', type: 'string', required: true, in: 'path' },
    (slug, { store }) => store.eventBySlug(sanitizeSlugLookup(slug)) !== undefined,
  ),
  password: eventIdArgs.password,
};

/** WordPress' `get_page_by_path` sanitizes the slug before looking it up. */
export function sanitizeSlugLookup(slug: string): string {
  return slug.toLowerCase().replace(/[^\p{L}\p{N}_%-]/gu, '');
}

export { positiveInt };
