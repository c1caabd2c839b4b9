/**
 * The plain fields of a venue, in the order every writer emits them (issue 29): stored key, wire key (the
 * same in cal/events/v1 and tribe/events/v1), how two values compare, CSV column and schema.org property.
 * Presenters and the sync's local/remote records loop over these rows instead of restating each field.
 */
export interface FieldRow<K extends string> {
  /** Key of the stored record. */
  stored: K;
  /** Key on the wire (REST answers, sync bodies); both dialects agree for venues. */
  wire: string;
  /** `text` is written as plain text (markup removed); a `url` is only trimmed, and `null` clears it. */
  type: 'text' | 'url';
  /** How the sync planner compares two values. */
  compare: 'text';
  /** CSV column key, when the column carries this field alone. */
  csv?: string;
  /** schema.org property of the record's own object (Place, Person), when the value is copied as is. */
  jsonLd?: string;
  /** schema.org property of the venue's PostalAddress, when the value is copied as is. */
  jsonLdAddress?: string;
}

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

/** What a write may send for a table's rows: each by its wire key (a `url` may be null: cleared). */
export type InputOfRows<Rows extends readonly FieldRow<string>[]> = {
  [R in Rows[number] as R['wire']]?: R['type'] extends 'url' ? string | null : string;
};

/** The schema.org properties of a table's rows (`jsonLd`, or `jsonLdAddress`: a venue's address), from the record. */
export function jsonLdOfRows<const Rows extends readonly FieldRow<string>[]>(
  rows: Rows,
  record: { [R in Rows[number] as R['stored']]: string },
  on: 'jsonLd' | 'jsonLdAddress',
): Record<string, string> {
  const stored = record as Record<string, string>;
  const properties: Record<string, string> = {};
  for (const row of rows) {
    const property = row[on];
    if (property) properties[property] = stored[row.stored]!;
  }
  return properties;
}

/** The wire object of a table's rows, in table order, each value mapped by `read` from its stored key. */
export function wireOfRows<K extends string, T>(
  rows: readonly FieldRow<K>[],
  read: (key: K) => T,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const row of rows) out[row.wire] = read(row.stored);
  return out;
}

/**
 * An object with one entry per row, keyed by the row's stored or wire key, each `value`: a zod shape (the store's
 * record schema and the remote answers' schemas take a table's fields from here, in table order) or a pick mask.
 */
export function shapeOfRows<
  const Rows extends readonly FieldRow<string>[],
  By extends 'stored' | 'wire',
  const V,
>(rows: Rows, by: By, value: V): { [R in Rows[number] as R[By]]: V } {
  // Built key by key: TypeScript cannot follow the mapped type through Object.fromEntries.
  return Object.fromEntries(rows.map((row) => [row[by], value])) as { [R in Rows[number] as R[By]]: V };
}

/** The wire object of the venue's text rows, in table order, each value mapped by `read`. */
export const venueTextWire = <T>(read: (key: VenueTextKey) => T) =>
  wireOfRows(VENUE_TEXT_FIELDS, read) as VenueTextWire<T>;
