import { z } from 'zod';
import { SYNC_KINDS, type Conflict, type Operation, type SyncKind } from '../../shared/schemas/sync';

export {
  POLICIES,
  SYNC_KINDS,
  type Conflict,
  type ConflictPolicy,
  type ConflictReason,
  type Decisions,
  type FieldDiff,
  type Operation,
  type SyncKind,
} from '../../shared/schemas/sync';

/** The REST collection of each kind, and the key its archive answers under. */
export const COLLECTION: Record<SyncKind, string> = {
  category: 'categories',
  tag: 'tags',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
};

/** Local ids another record points at; the executor turns them into remote ids when it sends the record. */
export interface LocalRefs {
  parent?: number;
  venue?: number;
  organizer?: number[];
  categories?: number[];
  tags?: number[];
}

/** A local record as the planner sees it: wire-named fields without references, and the references apart. */
export interface LocalRecord {
  kind: SyncKind;
  id: number;
  revision: number;
  slug: string;
  /** Trashed locally: pushed as a deletion when it is linked. */
  deleted: boolean;
  fields: Record<string, unknown>;
  refs: LocalRefs;
  /** Values sent instead of the comparable ones (e.g. the raw cost, compared as its numbers). */
  send?: Record<string, unknown>;
}

/** A remote record, reduced to what the sync compares: wire fields with references as remote ids. */
export interface RemoteRecord {
  kind: SyncKind;
  id: number;
  slug: string;
  modifiedUtc: string | null;
  etag: string | null;
  /** Comparable fields (same names as {@link LocalRecord.fields}, references as remote ids). */
  fields: Record<string, unknown>;
}

export const linkSchema = z.object({
  kind: z.enum(SYNC_KINDS),
  localId: z.number().int().nonnegative(),
  /** null while a create was sent whose outcome is unknown (a crash or a lost answer): look it up first. */
  remoteId: z.number().int().nonnegative().nullable(),
  /** The local revision the remote holds (null: linked but never pushed, e.g. a conflict left unresolved). */
  pushedRevision: z.number().int().nonnegative().nullable(),
  remoteModifiedUtc: z.string().nullable(),
  remoteEtag: z.string().nullable(),
  /** Hash of the remote's comparable fields when last seen: catches remotes without modified_utc (terms). */
  remoteHash: z.string().nullable(),
});
export type Link = z.infer<typeof linkSchema>;

/** What the data file keeps per remote under `syncLinks` (the links are entries of their own). */
export const remoteMetaSchema = z.object({
  root: z.string(),
  namespace: z.string(),
  lastSyncUtc: z.string().nullable(),
  /** Failures recorded on records by the last run: `kind:id` → message. */
  failures: z.record(z.string(), z.string()),
});
export type RemoteMeta = z.infer<typeof remoteMetaSchema>;

export const linkKey = (kind: SyncKind, localId: number) => `${kind}:${localId}`;

export interface Plan {
  operations: Operation[];
  /** Conflicts the policy left open (`ask` and `skip`): nothing is done to these records. */
  conflicts: Conflict[];
}
