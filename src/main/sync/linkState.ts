import type { CalendarStore } from '../store/store';
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

  /** Writes a link durably (the checkpoint of one operation). */
  async put(link: Link): Promise<void> {
    await this.store.mutate((tx) =>
      tx.setSyncState(`link:${this.key}|${linkKey(link.kind, link.localId)}`, link),
    );
    this.links.set(linkKey(link.kind, link.localId), link);
  }

  async remove(kind: SyncKind, localId: number): Promise<void> {
    await this.store.mutate((tx) => tx.setSyncState(`link:${this.key}|${linkKey(kind, localId)}`, null));
    this.links.delete(linkKey(kind, localId));
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
