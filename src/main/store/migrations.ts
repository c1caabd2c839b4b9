import { randomUUID } from 'node:crypto';
import { emptyChangeFeed, recordUid, SCHEMA_VERSION, type FeedKind } from './schema';

/** One step forward: turns a file of `version - 1` into a file of `version`. */
export interface Migration {
  version: number;
  describe: string;
  migrate(data: Record<string, unknown>): Record<string, unknown>;
}

/** Every migration, oldest first. A new schema version adds one entry here and a test with an old file. */
export const MIGRATIONS: Migration[] = [
  {
    version: 2,
    describe: 'journal: the file records the last journal batch folded into it',
    migrate: (data) => ({ ...data, schemaVersion: 2, journalSeq: 0 }),
  },
  {
    version: 3,
    describe: 'every event, venue, organizer, category and tag gets a stable uid (CONTRACT §2)',
    migrate: (data) => ({ ...data, ...withUids(data), schemaVersion: 3 }),
  },
  {
    version: 4,
    describe: 'the change feed (calendar-desk/v1/changes) starts with every record as it is',
    migrate: (data) => ({ ...data, changeFeed: changeFeedOf(data), schemaVersion: 4 }),
  },
];

/**
 * A new change feed holding every record of `data`, numbered in dependency order (terms, venues, organizers,
 * events), so that a reader of the whole feed meets what an event refers to before the event.
 */
export function changeFeedOf(data: Record<string, unknown>) {
  const feed = emptyChangeFeed();
  const kinds: Array<[string, (record: { taxonomy?: unknown }) => FeedKind]> = [
    ['terms', (term) => (term.taxonomy === 'category' ? 'category' : 'tag')],
    ['venues', () => 'venue'],
    ['organizers', () => 'organizer'],
    ['events', () => 'event'],
  ];
  for (const [name, kindOf] of kinds) {
    const records = data[name];
    if (!Array.isArray(records)) continue;
    for (const record of records as Array<{ id: number; taxonomy?: unknown }>) {
      feed.live.push([++feed.seq, kindOf(record), record.id]);
    }
  }
  return feed;
}

/** The collections whose records carry a `uid`. */
export const UID_COLLECTIONS = ['events', 'venues', 'organizers', 'terms'] as const;
export const isUidCollection = (name: string): name is (typeof UID_COLLECTIONS)[number] =>
  (UID_COLLECTIONS as readonly string[]).includes(name);

/**
 * The record collections of `data` with a new UUID on every record that has no valid one; records that have
 * one keep it. Written back at once by the caller (the upgraded data file, a restored dump), so each record
 * gets its uid exactly once.
 */
export function withUids(data: Record<string, unknown>): Record<string, unknown> {
  const collections: Record<string, unknown> = {};
  for (const name of UID_COLLECTIONS) {
    const records = data[name];
    if (!Array.isArray(records)) continue;
    collections[name] = records.map((record: unknown) =>
      record !== null &&
      typeof record === 'object' &&
      !recordUid.safeParse((record as { uid?: unknown }).uid).success
        ? { ...record, uid: randomUUID() }
        : record,
    );
  }
  return collections;
}

/**
 * A record from a journal batch written before records had a uid (the program stopped before folding it into
 * the data file, then was upgraded): it keeps the uid the upgraded file gave it, or gets a new one.
 */
export function recordWithUid<T extends object>(record: T, current: { uid: string } | undefined): T {
  if (recordUid.safeParse((record as { uid?: unknown }).uid).success) return record;
  return { ...record, uid: current?.uid ?? randomUUID() };
}

export class MigrationError extends Error {
  readonly code = 'MIGRATION_FAILED';
}

/**
 * Brings raw data of any older schema version up to SCHEMA_VERSION, step by step. Returns the data and the
 * versions it went through (empty when it was current). Newer versions are refused by the caller.
 */
export function migrate(
  raw: Record<string, unknown>,
  migrations: Migration[] = MIGRATIONS,
  target = SCHEMA_VERSION,
): { data: Record<string, unknown>; applied: number[] } {
  let data = raw;
  const applied: number[] = [];
  const from = typeof raw.schemaVersion === 'number' ? raw.schemaVersion : 1;
  for (const migration of migrations) {
    if (migration.version <= from || migration.version > target) continue;
    try {
      data = migration.migrate(data);
    } catch (error) {
      throw new MigrationError(
        `Could not upgrade the data file to version ${migration.version} (${migration.describe}): ${(error as Error).message}`,
      );
    }
    applied.push(migration.version);
  }
  return { data, applied };
}
