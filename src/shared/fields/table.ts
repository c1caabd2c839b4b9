/**
 * A table of a record kind's plain fields (issue 29): one row per field, with its stored key, its wire key and
 * how every writer treats it. Presenters, the store's and remotes' schemas, the sync's records, CSV and JSON-LD
 * loop over a kind's rows (venue.ts, organizer.ts, event.ts) with these helpers instead of restating each field.
 */

/** What every row has: the key of the stored record and the key on the wire (REST answers, sync bodies). */
export interface KeyedRow<K extends string = string> {
  stored: K;
  wire: string;
}

/** A text row of a linked post (venue, organizer): both dialects agree on its wire key. */
export interface FieldRow<K extends string> extends KeyedRow<K> {
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
  rows: readonly KeyedRow<K>[],
  read: (key: K) => T,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const row of rows) out[row.wire] = read(row.stored);
  return out;
}

/**
 * An object with one entry per row, keyed by the row's stored, wire or CSV key, each `value`: a zod shape (the
 * store's record schema and the remote answers' schemas take a table's fields from here, in table order) or a
 * pick mask.
 */
export function shapeOfRows<
  const Rows extends readonly Record<By, string>[],
  By extends 'stored' | 'wire' | 'csv',
  const V,
>(rows: Rows, by: By, value: V): { [R in Rows[number] as R[By]]: V } {
  return objectOfRows(rows, by, () => value);
}

/** An object with one entry per row, keyed by the row's stored, wire or CSV key, in table order: `read(row)`. */
export function objectOfRows<
  const Rows extends readonly Record<By, string>[],
  By extends 'stored' | 'wire' | 'csv',
  T,
>(rows: Rows, by: By, read: (row: Rows[number]) => T): { [R in Rows[number] as R[By]]: T } {
  // Built key by key: TypeScript cannot follow the mapped type through Object.fromEntries.
  return Object.fromEntries(rows.map((row) => [row[by], read(row)])) as { [R in Rows[number] as R[By]]: T };
}
