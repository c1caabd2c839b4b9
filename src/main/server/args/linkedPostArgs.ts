import { z } from 'zod';
import { arg, optionalAll, validateArgs, type CheckContext } from './define';
import {
  authorArg,
  clearableText,
  imageArg,
  isHttpUrl,
  pageArg,
  perPageArg,
  postStatusArg,
  publicationDateArgs,
  requiredName,
  statusFilterArg,
  uidArg,
  withoutUid,
} from './common';
import { looseScalar, nonEmptyString, wpInteger, wpString } from './wpTypes';
import { linkedEntries, normaliseInlineKeys } from '../../core/linkedEntries';
import { textOf } from '../../core/values';

const websiteArg = (description: string) =>
  arg(
    z.union([wpString(), z.null()]),
    { description, type: 'string', default: null, in: 'body' },
    (value) => value === null || value === '' || isHttpUrl(value.trim()),
  );

/** Venue `show_map`: typed string in the reference, read with truthy rules; booleans accepted too. */
const venueFlag = (description: string) =>
  arg(z.union([wpString(), z.boolean(), z.number(), z.null()]), {
    description,
    type: 'string',
    default: null,
    in: 'body',
  });

/**
 * A coordinate in decimal degrees: a JSON number or a numeric string (form bodies); `''`/`null` clear it.
 * Booleans and other words are refused (no `Number()` coercion: `true` must not become 1, `''` not 0).
 */
const coordinate = (description: string, limit: number, other: string) =>
  arg(
    z.union([
      z.literal(''),
      z.null(),
      z.number().min(-limit).max(limit),
      z
        .string()
        .regex(/^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/)
        .transform(Number)
        .pipe(z.number().min(-limit).max(limit)),
    ]),
    { description, type: 'number', in: 'body', extension: true },
    (value, { raw }) => {
      const cleared = (item: unknown) => item === '' || item === null;
      if (raw[other] === undefined) return 'Send geo_lat and geo_lng together.';
      return cleared(value) === cleared(raw[other]) || 'Set or clear geo_lat and geo_lng together.';
    },
  );

/** `POST /venues` (REFERENCE §2.3) plus our `geo_lat`/`geo_lng`. */
export const venueCreateArgs = {
  author: authorArg('venue'),
  ...publicationDateArgs('venue'),
  venue: requiredName('The venue name'),
  description: clearableText('The venue description'),
  status: postStatusArg('venue'),
  show_map: venueFlag('Whether events linked to the venue should show a map or not'),
  show_map_link: venueFlag('Whether events linked to the venue should show a map link or not'),
  address: clearableText('The venue address'),
  city: clearableText('The venue city'),
  country: clearableText('The venue country'),
  province: clearableText('The venue province'),
  state: clearableText('The venue state'),
  zip: clearableText('The venue ZIP code'),
  phone: clearableText('The venue phone number'),
  stateprovince: clearableText('The venue state and province'),
  website: websiteArg('The venue website URL'),
  image: imageArg('venue'),
  geo_lat: coordinate('The venue latitude (decimal degrees)', 90, 'geo_lng'),
  geo_lng: coordinate('The venue longitude (decimal degrees)', 180, 'geo_lat'),
  uid: uidArg(),
};

/** `POST /organizers` (REFERENCE §2.4). */
export const organizerCreateArgs = {
  author: authorArg('organizer'),
  ...publicationDateArgs('organizer'),
  organizer: requiredName('The organizer name'),
  description: clearableText('The organizer description'),
  status: postStatusArg('organizer'),
  phone: clearableText('The organizer phone number'),
  website: websiteArg('The organizer website'),
  email: clearableText('The organizer e-mail address'),
  image: imageArg('organizer'),
  uid: uidArg(),
};

/** Updates: all optional (the name, when sent, must still be non-empty). */
export const venueUpdateArgs = optionalAll(withoutUid(venueCreateArgs));
export const organizerUpdateArgs = optionalAll(withoutUid(organizerCreateArgs));

/** `GET /venues`, `GET /organizers` (REFERENCE §2.3, §2.4). */
export const linkedPostArchiveArgs = (plural: 'venues' | 'organizers') => {
  const Kind = plural === 'venues' ? 'Venues' : 'Organizers';
  return {
    page: pageArg(),
    per_page: perPageArg(plural),
    search: arg(nonEmptyString(), {
      description: `${Kind} should contain the specified string in the title, description or custom fields`,
      type: 'string',
      in: 'query',
    }),
    event: arg(
      wpInteger(),
      { description: `${Kind} should be related to this event`, type: 'integer', in: 'query' },
      (id, { store }) => store.events.has(id),
    ),
    has_events: arg(looseScalar(), {
      description: `${Kind} should have events associated to them`,
      in: 'query',
    }),
    only_with_upcoming: arg(looseScalar(), {
      description: `${Kind} should have upcoming events associated to them`,
      default: false,
      in: 'query',
    }),
    status: statusFilterArg(`The ${plural === 'venues' ? 'venue' : 'organizer'} post status`),
  };
};

export const linkedPostIdArgs = (kind: 'venue' | 'organizer') => ({
  id: arg(
    wpInteger(),
    { description: `the ${kind} post ID`, type: 'integer', required: true, in: 'path' },
    (id, { store }) => (kind === 'venue' ? store.venues.has(id) : store.organizers.has(id)),
  ),
});

export const linkedPostSlugArgs = (kind: 'venue' | 'organizer') => ({
  slug: arg(
    wpString(),
    { description: `the ${kind} post name`, type: 'string', required: true, in: 'path' },
    (slug, { store }) =>
      (kind === 'venue'
        ? store.venues.getByKey(slug.toLowerCase())
        : store.organizers.getByKey(slug.toLowerCase())) !== undefined,
  ),
});

/** `is_venue_id_or_entry_or_empty` / `is_organizer_id_or_entry_or_empty`. */
export function linkedPostEntryCheck(kind: 'venue' | 'organizer') {
  return (value: unknown, context: CheckContext): boolean => {
    const entries = linkedEntries(value);
    if (entries === null) return false;
    const exists = (id: number) =>
      kind === 'venue' ? context.store.venues.has(id) : context.store.organizers.has(id);
    return entries.every((entry) => {
      if (typeof entry === 'number') return exists(entry);
      if (entry.id !== undefined) return /^\d+$/.test(textOf(entry.id)) && exists(Number(entry.id));
      try {
        validateArgs(
          kind === 'venue' ? venueCreateArgs : organizerCreateArgs,
          normaliseInlineKeys(entry),
          context,
        );
        return true;
      } catch {
        return false;
      }
    });
  };
}

export { pageArg };
