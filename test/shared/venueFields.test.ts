import { describe, expect, it } from 'vitest';
import { storedOrganizerSchema, storedVenueSchema } from '../../src/main/store/schema';
import { VENUE_NON_TABLE_KEYS, VENUE_TEXT_FIELDS } from '../../src/shared/fields/venue';
import { ORGANIZER_NON_TABLE_KEYS, ORGANIZER_TEXT_FIELDS } from '../../src/shared/fields/organizer';

// Keys every post shares (id, revision, …): bookkeeping, not venue fields.
const POST_BASE_KEYS = [
  'id',
  'uid',
  'authorId',
  'status',
  'slug',
  'language',
  'description',
  'excerpt',
  'imageId',
  'password',
  'parentId',
  'dateUtc',
  'modifiedUtc',
  'revision',
];

const TABLES = [
  { kind: 'venue', rows: VENUE_TEXT_FIELDS, others: VENUE_NON_TABLE_KEYS, schema: storedVenueSchema },
  {
    kind: 'organizer',
    rows: ORGANIZER_TEXT_FIELDS,
    others: ORGANIZER_NON_TABLE_KEYS,
    schema: storedOrganizerSchema,
  },
] as const;

describe.each(TABLES)('$kind field table (issue 29)', ({ rows, others, schema }) => {
  const stored = rows.map((row) => row.stored as string);

  it('covers every stored key, so a new stored field without a row fails', () => {
    const known = new Set([...stored, ...others, ...POST_BASE_KEYS]);
    const missing = Object.keys(schema.shape).filter((key) => !known.has(key));
    expect(missing).toEqual([]);
  });

  it('names each stored key once and only keys the schema has', () => {
    expect(new Set(stored).size).toBe(stored.length);
    const shape = Object.keys(schema.shape);
    for (const key of [...stored, ...others]) expect(shape).toContain(key);
  });
});
