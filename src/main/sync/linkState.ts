import type { CalendarStore, Transaction } from '../store/store';
import {
  linkKey,
  linkSchema,
  mediaLinkSchema,
  remoteMetaSchema,
  type Link,
  type MediaLink,
  type RemoteMeta,
  type SyncKind,
} from './model';
import { RecordProblem } from './eventPassword';

/** The sync state in the data file is not what this version wrote: refuse rather than guess. */
export class SyncStateError extends Error {
  readonly code = 'SYNC_STATE_INVALID';
}

/** Identifies a remote in the data file: its REST root and namespace. */
export function remoteKey(root: string, namespace: string): string {
  const normalizedRoot = root.endsWith('/') ? root : `${root}/`;
  return `${normalizedRoot}#${namespace.replace(/^\/|\/$/g, '')}`;
}

/**
 * The links of one remote, kept in the store. Every change is one durable store write, so a sync that stops
 * at any point resumes from the last finished operation. One entry per link keeps each write small.
 */
export class LinkState {
  private readonly links = new Map<string, Link>();
  /** The local id linked to each remote record (`kind:remoteId`): one local record per remote record. */
  private readonly localOfRemote = new Map<string, number>();
  private readonly media = new Map<number, MediaLink>();
  /** Local ids of events sent to this remote with a password (so removing it here removes it there). */
  private readonly protectedEvents = new Set<number>();
  meta: RemoteMeta;

  constructor(
    private readonly store: CalendarStore,
    readonly key: string,
    root: string,
    namespace: string,
  ) {
    const metaRaw = store.syncState(`remote:${key}`);
    const meta = metaRaw === undefined ? null : remoteMetaSchema.safeParse(metaRaw);
    if (meta && !meta.success)
      throw new SyncStateError(`The sync state of ${key} in the data file is damaged.`);
    this.meta = meta?.data ?? { root, namespace, lastSyncUtc: null, failures: {} };
    for (const entry of store.syncKeys(`link:${key}|`)) {
      const parsed = linkSchema.safeParse(store.syncState(entry));
      if (!parsed.success) throw new SyncStateError(`The sync link ${entry} in the data file is damaged.`);
      this.links.set(linkKey(parsed.data.kind, parsed.data.localId), parsed.data);
      if (parsed.data.remoteId !== null)
        this.localOfRemote.set(linkKey(parsed.data.kind, parsed.data.remoteId), parsed.data.localId);
    }
    for (const entry of store.syncKeys(`media:${key}|`)) {
      const parsed = mediaLinkSchema.safeParse(store.syncState(entry));
      if (!parsed.success) throw new SyncStateError(`The media link ${entry} in the data file is damaged.`);
      this.media.set(parsed.data.localId, parsed.data);
    }
    for (const entry of store.syncKeys(`protected:${key}|`)) {
      if (store.syncState(entry) === true) this.protectedEvents.add(Number(entry.split('|').pop()));
    }
  }

  /** Whether the event was last sent to this remote with a password. */
  isProtected(localEventId: number): boolean {
    return this.protectedEvents.has(localEventId);
  }

  /** Records (durably) whether the remote copy of an event now has a password. */
  async setProtected(localEventId: number, isProtected: boolean): Promise<void> {
    if (this.protectedEvents.has(localEventId) === isProtected) return;
    await this.store.mutate((tx) =>
      tx.setSyncState(`protected:${this.key}|${localEventId}`, isProtected ? true : null),
    );
    if (isProtected) this.protectedEvents.add(localEventId);
    else this.protectedEvents.delete(localEventId);
  }

  all(): Link[] {
    return [...this.links.values()];
  }

  get(kind: SyncKind, localId: number): Link | undefined {
    return this.links.get(linkKey(kind, localId));
  }

  remoteIdOf = (kind: SyncKind, localId: number): number | null => this.get(kind, localId)?.remoteId ?? null;

  /** The local record linked to a remote record, as the links are now (kept as they change: no scan per call). */
  localIdOf = (kind: SyncKind, remoteId: number): number | null => {
    const localId = this.localOfRemote.get(linkKey(kind, remoteId));
    return localId !== undefined && this.get(kind, localId)?.remoteId === remoteId ? localId : null;
  };

  /**
   * The other local record linked to a remote record, if any: two local records are never linked to one remote
   * record (each sync would copy its fields over both).
   */
  linkedElsewhere(kind: SyncKind, remoteId: number, localId: number): number | null {
    const other = this.localOfRemote.get(linkKey(kind, remoteId));
    return other !== undefined && other !== localId && this.get(kind, other)?.remoteId === remoteId
      ? other
      : null;
  }

  /**
   * Writes a link durably (the checkpoint of one operation). Refused with a {@link RecordProblem} when the
   * remote record is already linked to another local record (see {@link linkedElsewhere}).
   */
  async put(link: Link): Promise<void> {
    this.refuseLinkedElsewhere(link);
    await this.store.mutate((tx) =>
      tx.setSyncState(`link:${this.key}|${linkKey(link.kind, link.localId)}`, link),
    );
    this.took(link);
  }

  /**
   * Writes links within a store change of the caller's (a page of imported records and their links: one
   * durable write). Checked as {@link put}; they count here once {@link tookAll} is told the change is written.
   */
  writeIn(tx: Transaction, links: Link[]): void {
    for (const link of links) {
      this.refuseLinkedElsewhere(link);
      tx.setSyncState(`link:${this.key}|${linkKey(link.kind, link.localId)}`, link);
    }
  }

  /** Links written by {@link writeIn} in a change now durable. */
  tookAll(links: Link[]): void {
    for (const link of links) this.took(link);
  }

  private refuseLinkedElsewhere(link: Link): void {
    const other =
      link.remoteId === null ? null : this.linkedElsewhere(link.kind, link.remoteId, link.localId);
    if (other === null) return;
    throw new RecordProblem(
      'SYNC_REMOTE_ALREADY_LINKED',
      `The remote's ${link.kind} ${link.remoteId} is already the copy of local ${link.kind} ${other}: two ` +
        `records here are not linked to one there, or each sync would copy its fields over both. If they ` +
        'have the same name, run the sync with --keep-apart or --merge-same-names.',
    );
  }

  private took(link: Link): void {
    this.forgetRemoteOf(link.kind, link.localId);
    this.links.set(linkKey(link.kind, link.localId), link);
    if (link.remoteId !== null) this.localOfRemote.set(linkKey(link.kind, link.remoteId), link.localId);
  }

  async remove(kind: SyncKind, localId: number): Promise<void> {
    await this.store.mutate((tx) => tx.setSyncState(`link:${this.key}|${linkKey(kind, localId)}`, null));
    this.forgetRemoteOf(kind, localId);
    this.links.delete(linkKey(kind, localId));
  }

  /** Drops the reverse entry of a local record's current link (before it changes or goes). */
  private forgetRemoteOf(kind: SyncKind, localId: number): void {
    const remoteId = this.get(kind, localId)?.remoteId;
    if (remoteId == null) return;
    const key = linkKey(kind, remoteId);
    if (this.localOfRemote.get(key) === localId) this.localOfRemote.delete(key);
  }

  allMedia(): MediaLink[] {
    return [...this.media.values()];
  }

  mediaLink(localMediaId: number): MediaLink | undefined {
    return this.media.get(localMediaId);
  }

  /** Remote media id of a local picture, when it was sent to this remote and the remote kept it. */
  remoteMediaIdOf = (localMediaId: number): number | null => this.media.get(localMediaId)?.remoteId ?? null;

  /** Writes a media link durably (an upload's checkpoint). */
  async putMedia(link: MediaLink): Promise<void> {
    await this.store.mutate((tx) => tx.setSyncState(`media:${this.key}|${link.localId}`, link));
    this.media.set(link.localId, link);
  }

  async removeMedia(localMediaId: number): Promise<void> {
    await this.store.mutate((tx) => tx.setSyncState(`media:${this.key}|${localMediaId}`, null));
    this.media.delete(localMediaId);
  }

  async saveMeta(meta: RemoteMeta): Promise<void> {
    await this.store.mutate((tx) => tx.setSyncState(`remote:${this.key}`, meta));
    this.meta = meta;
  }
}
