import type {
  Conflict,
  ConflictPolicy,
  ConflictReason,
  Decisions,
  Link,
  LocalRecord,
  MediaLink,
  Operation,
  RemoteRecord,
  SyncDirection,
  SyncKind,
} from '../model';
import { linkKey } from '../model';
import { comparableLocal, diffFields, remoteIdLookup, remoteMediaIdLookup } from '../compare';
import { withoutGoneRefs } from '../goneRefs';
import { sameRecordKey } from '../sameRecord';
import { textOf } from '../../core/values';

export interface PlanOptions {
  policy: ConflictPolicy;
  decisions?: Decisions;
  /** Which local pictures this remote already has (their remote media ids). */
  mediaLinks?: MediaLink[];
  /**
   * `push` (the default here, and `--push-only`): only local changes go out. `both`: the remote's changes come
   * in too (new records imported, edits merged field by field, deletions trashed here). `pull`: only those.
   */
  direction?: SyncDirection;
  /** Events last sent to this remote with a password (the link state knows them). */
  sentProtected?: (localEventId: number) => boolean;
}

export const isHead = (record: LocalRecord) => record.series?.headId === record.id;

/** An occurrence of a series (not its head) that follows the series' edits (not changed on its own). */
export const followsSeries = (record: LocalRecord) =>
  record.series !== undefined && !isHead(record) && !record.series.override;

export const titleOf = (record: LocalRecord | undefined, kind: SyncKind, id: number) =>
  textOf(
    record?.fields.title ??
      record?.fields.name ??
      record?.fields.venue ??
      record?.fields.organizer ??
      `${kind} ${id}`,
  );

/**
 * One planning run: the inputs indexed once, the links settled (their bases without references to records
 * gone from the remote), the twins unlinked records adopt, and the one builder of operations and conflicts
 * every phase adds to (`add`, `decide`, `conflictOf`, `updateOf`).
 */
export class PlanRun {
  /** The links as given, each base without references to remote records gone that no link names any more. */
  readonly links: Link[];
  readonly linkedIdOf: (kind: SyncKind, localId: number) => number | null;
  readonly remoteMediaIdOf: ReturnType<typeof remoteMediaIdLookup>;
  readonly sentMedia: Set<number>;
  readonly localByKey: Map<string, LocalRecord>;
  readonly linkByKey: Map<string, Link>;
  readonly remoteById: Map<string, RemoteRecord>;
  readonly remoteBySlug: Map<string, RemoteRecord>;
  readonly remoteByUid: Map<string, RemoteRecord>;
  readonly remoteBySameKey = new Map<string, RemoteRecord>();
  /** Remote records some link already names. */
  readonly linkedRemote: Set<string>;
  /** Remote records an unlinked local record adopts, or that a record deleted here came from. */
  readonly claimed = new Set<string>();
  /** Unlinked local records → the remote twin they adopt. */
  readonly twinIds = new Map<string, number>();
  readonly pushes: boolean;
  readonly pulls: boolean;
  /** Heads of series whose rule waits for a decision on dates it removes (nothing of them taken or sent). */
  readonly heldHeads = new Set<number>();
  /** Heads of series whose rule here wins over the remote's (`local-wins` on the dates it removes). */
  readonly localRuleHeads = new Set<number>();

  readonly upserts: Operation[] = [];
  readonly deletes: Operation[] = [];
  readonly conflicts: Conflict[] = [];

  constructor(
    readonly local: LocalRecord[],
    givenLinks: Link[],
    readonly remote: RemoteRecord[],
    readonly options: PlanOptions,
  ) {
    this.remoteById = new Map(remote.map((record) => [linkKey(record.kind, record.id), record]));
    this.linkedRemote = new Set(
      givenLinks.filter((link) => link.remoteId !== null).map((link) => linkKey(link.kind, link.remoteId!)),
    );
    const links = givenLinks.map((link) => withoutGoneRefs(link, this.remoteById, this.linkedRemote));
    this.links = links;
    this.linkedIdOf = remoteIdLookup(links);
    const mediaLinks = options.mediaLinks ?? [];
    this.remoteMediaIdOf = remoteMediaIdLookup(mediaLinks);
    this.sentMedia = new Set(mediaLinks.map((link) => link.localId));
    this.localByKey = new Map(local.map((record) => [linkKey(record.kind, record.id), record]));
    this.linkByKey = new Map(links.map((link) => [linkKey(link.kind, link.localId), link]));
    const direction = options.direction ?? 'push';
    this.pushes = direction !== 'pull';
    this.pulls = direction !== 'push';
    this.remoteBySlug = new Map(remote.map((record) => [`${record.kind}:${record.slug}`, record]));
    this.remoteByUid = new Map(
      remote.flatMap((record) => (record.uid ? [[`${record.kind}:${record.uid}`, record] as const] : [])),
    );
    for (const record of remote) {
      const key = sameRecordKey(record.kind, record.fields);
      if (key && !this.remoteBySameKey.has(key)) this.remoteBySameKey.set(key, record);
    }
    this.findTwins();
  }

  uidOf = (record: LocalRecord) => (typeof record.send?.uid === 'string' ? record.send.uid : '');

  /**
   * The remote record an unlinked local one is (unclaimed by another): the same uid (records that came from
   * one Calendar Desk), else the same slug, else a venue or organizer of the same name and address (two
   * created offline on two computers become one).
   */
  private twinOf(record: LocalRecord): RemoteRecord | undefined {
    const candidates = [
      this.remoteByUid.get(`${record.kind}:${this.uidOf(record)}`),
      this.remoteBySlug.get(`${record.kind}:${record.slug}`),
      this.remoteBySameKey.get(sameRecordKey(record.kind, record.fields) ?? ''),
    ];
    const twin = candidates.find(
      (candidate) =>
        candidate &&
        !this.linkedRemote.has(linkKey(record.kind, candidate.id)) &&
        !this.claimed.has(linkKey(record.kind, candidate.id)),
    );
    if (twin) this.claimed.add(linkKey(record.kind, twin.id));
    return twin;
  }

  private findTwins(): void {
    // Records this plan may adopt (unlinked, with an unclaimed remote twin): a reference to one compares as
    // that remote record, as it will be once adopted, not as a record missing from the remote.
    for (const record of this.local) {
      if (record.deleted || this.linkedIdOf(record.kind, record.id) !== null) continue;
      const twin = this.twinOf(record);
      if (twin) this.twinIds.set(linkKey(record.kind, record.id), twin.id);
    }
    // A record deleted here that came from the remote (same uid) is not imported again.
    for (const record of this.local) {
      const same = record.deleted ? this.remoteByUid.get(`${record.kind}:${this.uidOf(record)}`) : undefined;
      if (same) this.claimed.add(linkKey(record.kind, same.id));
    }
  }

  remoteIdOf = (kind: SyncKind, localId: number) =>
    this.linkedIdOf(kind, localId) ?? this.twinIds.get(linkKey(kind, localId)) ?? null;

  /** A local record's comparable values, in the remote's terms (references as remote ids). */
  comparable(record: LocalRecord, remoteRecord?: RemoteRecord) {
    return comparableLocal(record, this.remoteIdOf, this.remoteMediaIdOf, remoteRecord);
  }

  /** What differs between a local record and its remote version, in the remote's terms. */
  diffOf(record: LocalRecord, remoteRecord: RemoteRecord) {
    return diffFields(this.comparable(record, remoteRecord), remoteRecord.fields);
  }

  /** Adds an operation where it belongs: deletions run last, in reverse order. */
  add(operation: Operation | null): void {
    if (operation) (operation.type === 'delete' ? this.deletes : this.upserts).push(operation);
  }

  /** The user's choice for a record: its own decision, else the policy. */
  choiceFor(kind: SyncKind, localId: number) {
    return this.options.decisions?.[linkKey(kind, localId)] ?? this.options.policy;
  }

  /** A conflict settled by the choice (`local-wins`, `remote-wins`), or listed to wait (`ask`, `skip`). */
  decide(
    conflict: Conflict,
    outcomes: { 'local-wins': Operation | null; 'remote-wins': Operation | null },
  ): void {
    const choice = this.choiceFor(conflict.kind, conflict.localId);
    if (choice === 'local-wins' || choice === 'remote-wins') this.add(outcomes[choice]);
    else this.conflicts.push(conflict);
  }

  conflictOf(
    record: LocalRecord | undefined,
    kind: SyncKind,
    localId: number,
    remoteRecord: RemoteRecord | undefined,
    reason: ConflictReason,
  ): Conflict {
    return {
      kind,
      localId,
      remoteId: remoteRecord?.id ?? null,
      reason,
      title: titleOf(record, kind, localId),
      diff: record && remoteRecord && !record.deleted ? this.diffOf(record, remoteRecord) : [],
    };
  }

  /** An update sending the local record's differences from the remote one (unforced: the ETag guards it). */
  updateOf(record: LocalRecord, remoteRecord: RemoteRecord, remoteId: number): Operation {
    return {
      type: 'update',
      kind: record.kind,
      localId: record.id,
      remoteId,
      title: titleOf(record, record.kind, record.id),
      force: false,
      diff: this.diffOf(record, remoteRecord),
    };
  }

  /** A record unchanged here whose picture was never sent (pushed before pictures were synced): sent now. */
  unsentPictureUpdate(record: LocalRecord, remoteRecord: RemoteRecord, remoteId: number): void {
    if (!record.image || this.sentMedia.has(record.image.mediaId)) return;
    const update = this.updateOf(record, remoteRecord, remoteId);
    if (update.type === 'update' && update.diff?.some((change) => change.field === 'image'))
      this.upserts.push(update);
  }

  /** Whether the series of a local head is one on the remote too (a Calendar Desk shows its rule). */
  seriesThere(headId: number): boolean {
    const remoteHeadId = this.linkedIdOf('event', headId);
    return (
      remoteHeadId !== null &&
      this.remoteById.get(linkKey('event', remoteHeadId))?.fields.recurrence !== undefined
    );
  }
}
