import { z } from 'zod';

/** What the sync engine pushes, in push order (deletions run in the reverse order). */
export const SYNC_KINDS = ['category', 'tag', 'venue', 'organizer', 'event'] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];

/** The REST collection of each kind, and the key its archive answers under. */
export const COLLECTION: Record<SyncKind, string> = {
  category: 'categories',
  tag: 'tags',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
};

export const POLICIES = ['ask', 'local-wins', 'remote-wins', 'skip'] as const;
export type ConflictPolicy = (typeof POLICIES)[number];

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

/** One field that differs between the local and the remote version of a record. */
export interface FieldDiff {
  field: string;
  local: unknown;
  remote: unknown;
}

export type ConflictReason =
  'both-changed' | 'local-deleted-remote-changed' | 'remote-deleted' | 'both-exist';

export interface Conflict {
  kind: SyncKind;
  localId: number;
  remoteId: number | null;
  reason: ConflictReason;
  title: string;
  diff: FieldDiff[];
}

/**
 * One step of a sync. `adopt` links an existing remote record (same slug) without sending it; `accept` makes the
 * remote's current state the new baseline without sending anything; `pull` (a `remote-wins` decision) gives
 * the local record the remote's version; `unlink` forgets a link.
 */
export type Operation =
  | { type: 'create'; kind: SyncKind; localId: number; title: string }
  | { type: 'update'; kind: SyncKind; localId: number; remoteId: number; title: string; force: boolean }
  | { type: 'delete'; kind: SyncKind; localId: number; remoteId: number; title: string; force: boolean }
  | { type: 'adopt'; kind: SyncKind; localId: number; remoteId: number; title: string; thenUpdate: boolean }
  | { type: 'accept'; kind: SyncKind; localId: number; remoteId: number; title: string }
  | { type: 'pull'; kind: SyncKind; localId: number; remoteId: number; title: string }
  | { type: 'unlink'; kind: SyncKind; localId: number; title: string };

export interface Plan {
  operations: Operation[];
  /** Conflicts the policy left open (`ask` and `skip`): nothing is done to these records. */
  conflicts: Conflict[];
}

/** Decisions on single conflicts (from the desktop app), overriding the policy for those records. */
export type Decisions = Record<string, 'local-wins' | 'remote-wins' | 'skip'>;
