import { randomUUID } from 'node:crypto';
import {
  emptyChangeFeed,
  FEED_KIND_CODE_BASE,
  FEED_KINDS,
  recordUid,
  SCHEMA_VERSION,
  type FeedKind,
} from './schema';

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
  {
    version: 5,
    describe: 'the change feed keeps its entries in columns (a faster start)',
    migrate: (data) => ({ ...data, changeFeed: withLiveColumns(data.changeFeed), schemaVersion: 5 }),
  },
];

/** A version 4 change feed (an array of `[seq, kind, id]`) with its entries in columns; anything else as it is. */
function withLiveColumns(feed: unknown): unknown {
  if (feed === null || typeof feed !== 'object' || !Array.isArray((feed as { live?: unknown }).live))
    return feed;
  const entries = (feed as { live: unknown[] }).live;
  const columns = { seqs: [] as unknown[], kinds: '', ids: [] as unknown[] };
  const kinds: string[] = [];
  for (const entry of entries) {
    // An entry that is not one leaves a kind no record has: the schema's check then names the feed.
    const [seq, kind, id] = Array.isArray(entry) ? (entry as unknown[]) : [];
    const position = FEED_KINDS.indexOf(kind as FeedKind);
    columns.seqs.push(seq);
    kinds.push(String.fromCharCode(FEED_KIND_CODE_BASE + (position < 0 ? FEED_KINDS.length : position)));
    columns.ids.push(id);
  }
  columns.kinds = kinds.join('');
  return { ...feed, live: columns };
}

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
  const codes: string[] = [];
  for (const [name, kindOf] of kinds) {
    const records = data[name];
    if (!Array.isArray(records)) continue;
    for (const record of records as Array<{ id: number; taxonomy?: unknown }>) {
      feed.live.seqs.push(++feed.seq);
      codes.push(String.fromCharCode(FEED_KIND_CODE_BASE + FEED_KINDS.indexOf(kindOf(record))));
      feed.live.ids.push(record.id);
    }
  }
  feed.live.kinds = codes.join('');
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
