import { wireOfRows, type FieldRow } from './table';

/**
 * The plain fields of an organizer, in the order every writer emits them (issue 29, as VENUE_TEXT_FIELDS):
 * stored key, wire key (the same in cal/events/v1 and tribe/events/v1), how two values compare, CSV column and
 * schema.org Person property. Presenters and the sync's local/remote records loop over these rows.
 */
export const ORGANIZER_TEXT_FIELDS = [
  {
    stored: 'phone',
    wire: 'phone',
    type: 'text',
    compare: 'text',
    csv: 'organizer_phone',
    jsonLd: 'telephone',
  },
  {
    stored: 'website',
    wire: 'website',
    type: 'url',
    compare: 'text',
    csv: 'organizer_website',
    jsonLd: 'url',
  },
  { stored: 'email', wire: 'email', type: 'text', compare: 'text', csv: 'organizer_email', jsonLd: 'email' },
] as const satisfies readonly FieldRow<string>[];

export type OrganizerTextKey = (typeof ORGANIZER_TEXT_FIELDS)[number]['stored'];

/**
 * Stored keys that are not plain table rows: bookkeeping shared by every post, and the name (`organizer` on the
 * wire).
 */
export const ORGANIZER_NON_TABLE_KEYS = ['name', 'kind'] as const;

type OrganizerRow = (typeof ORGANIZER_TEXT_FIELDS)[number];
export type OrganizerTextWire<T> = { [R in OrganizerRow as R['wire']]: T };

/** The wire object of the organizer's text rows, in table order, each value mapped by `read`. */
export const organizerTextWire = <T>(read: (key: OrganizerTextKey) => T) =>
  wireOfRows(ORGANIZER_TEXT_FIELDS, read) as OrganizerTextWire<T>;
