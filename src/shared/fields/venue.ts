import { wireOfRows, type FieldRow } from './table';

/**
 * The plain fields of a venue, in the order every writer emits them (issue 29): stored key, wire key (the
 * same in cal/events/v1 and tribe/events/v1), how two values compare, CSV column and schema.org property.
 * Presenters and the sync's local/remote records loop over these rows instead of restating each field.
 */
export const VENUE_TEXT_FIELDS = [
  {
    stored: 'address',
    wire: 'address',
    type: 'text',
    compare: 'text',
    csv: 'venue_address',
    jsonLdAddress: 'streetAddress',
  },
  {
    stored: 'city',
    wire: 'city',
    type: 'text',
    compare: 'text',
    csv: 'venue_city',
    jsonLdAddress: 'addressLocality',
  },
  {
    stored: 'country',
    wire: 'country',
    type: 'text',
    compare: 'text',
    csv: 'venue_country',
    jsonLdAddress: 'addressCountry',
  },
  { stored: 'province', wire: 'province', type: 'text', compare: 'text' },
  { stored: 'state', wire: 'state', type: 'text', compare: 'text' },
  {
    stored: 'zip',
    wire: 'zip',
    type: 'text',
    compare: 'text',
    csv: 'venue_zip',
    jsonLdAddress: 'postalCode',
  },
  { stored: 'phone', wire: 'phone', type: 'text', compare: 'text', csv: 'venue_phone', jsonLd: 'telephone' },
  { stored: 'website', wire: 'website', type: 'url', compare: 'text', csv: 'venue_url', jsonLd: 'sameAs' },
  { stored: 'stateprovince', wire: 'stateprovince', type: 'text', compare: 'text' },
] as const satisfies readonly FieldRow<string>[];

export type VenueTextKey = (typeof VENUE_TEXT_FIELDS)[number]['stored'];

/**
 * Stored keys that are not plain table rows: bookkeeping shared by every post, and the fields whose
 * wire or presented form is special (name → `venue`, booleans renamed, coordinates sent only in pairs).
 */
export const VENUE_NON_TABLE_KEYS = ['name', 'showMap', 'showMapLink', 'geoLat', 'geoLng', 'kind'] as const;

type VenueRow = (typeof VENUE_TEXT_FIELDS)[number];
export type VenueTextWire<T> = { [R in VenueRow as R['wire']]: T };

/** The wire object of the venue's text rows, in table order, each value mapped by `read`. */
export const venueTextWire = <T>(read: (key: VenueTextKey) => T) =>
  wireOfRows(VENUE_TEXT_FIELDS, read) as VenueTextWire<T>;
