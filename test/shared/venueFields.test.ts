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

describe('venue field table (issue 29)', () => {
  it('covers every stored venue key, so a new stored field without a row fails', () => {
    const rows = VENUE_TEXT_FIELDS.map((row) => row.stored as string);
    const known = new Set([...rows, ...VENUE_NON_TABLE_KEYS, ...POST_BASE_KEYS]);
    const missing = Object.keys(storedVenueSchema.shape).filter((key) => !known.has(key));
    expect(missing).toEqual([]);
  });

  it('names each stored key once and only keys the schema has', () => {
    const rows = VENUE_TEXT_FIELDS.map((row) => row.stored as string);
    expect(new Set(rows).size).toBe(rows.length);
    const shape = Object.keys(storedVenueSchema.shape);
    for (const key of [...rows, ...VENUE_NON_TABLE_KEYS]) expect(shape).toContain(key);
  });
});

describe('organizer field table (issue 29)', () => {
  it('covers every stored organizer key, so a new stored field without a row fails', () => {
    const rows = ORGANIZER_TEXT_FIELDS.map((row) => row.stored as string);
    const known = new Set([...rows, ...ORGANIZER_NON_TABLE_KEYS, ...POST_BASE_KEYS]);
    const missing = Object.keys(storedOrganizerSchema.shape).filter((key) => !known.has(key));
    expect(missing).toEqual([]);
  });

  it('names each stored key once and only keys the schema has', () => {
    const rows = ORGANIZER_TEXT_FIELDS.map((row) => row.stored as string);
    expect(new Set(rows).size).toBe(rows.length);
    const shape = Object.keys(storedOrganizerSchema.shape);
    for (const key of [...rows, ...ORGANIZER_NON_TABLE_KEYS]) expect(shape).toContain(key);
  });
});
