import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { QueryValue } from '../api/client';
import {
  listAll,
  listPage,
  recordWrites,
  type Page,
  type RecordKind,
  type RecordOfKind,
} from '../api/records';
import { useSessionStore } from './session';
import type { MergeAnswer } from '../../../shared/schemas/merge';

/**
 * Venues, organizers, categories and tags: paged lists for their screens, complete lists for the pickers of
 * the event editor (cached until a write of that kind), and their writes.
 */
export const useRecordsStore = defineStore('records', () => {
  const session = useSessionStore();
  const everything = ref<{ [K in RecordKind]?: RecordOfKind[K][] }>({});
  const revision = ref<Record<RecordKind, number>>({ venues: 0, organizers: 0, categories: 0, tags: 0 });

  function changed(kind: RecordKind): void {
    delete everything.value[kind];
    revision.value[kind] += 1;
  }

  /** After changes made elsewhere (a sync, an import): every list is read again when next needed. */
  function invalidateAll(): void {
    for (const kind of Object.keys(revision.value) as RecordKind[]) changed(kind);
  }

  async function page<K extends RecordKind>(
    kind: K,
    query: Record<string, QueryValue>,
  ): Promise<Page<RecordOfKind[K]>> {
    return listPage(session.api(), kind, query);
  }

  /** Every record of a kind, for pickers (loaded once, refreshed after a write). */
  async function all<K extends RecordKind>(kind: K): Promise<RecordOfKind[K][]> {
    const cached = everything.value[kind] as RecordOfKind[K][] | undefined;
    if (cached) return cached;
    const asked = revision.value[kind];
    const loaded = await listAll(session.api(), kind, {});
    // A write of this kind while it loaded makes this list old: keep it for this caller, not in the cache.
    if (revision.value[kind] !== asked) return loaded;
    (everything.value as Record<RecordKind, unknown[]>)[kind] = loaded;
    return everything.value[kind] as RecordOfKind[K][];
  }

  /** Every trashed venue or organizer (terms have no trash). */
  async function trashed<K extends 'venues' | 'organizers'>(kind: K): Promise<RecordOfKind[K][]> {
    return listAll(session.api(), kind, { status: 'trash' });
  }

  async function create<K extends RecordKind>(
    kind: K,
    body: Record<string, unknown>,
  ): Promise<RecordOfKind[K]> {
    const { data } = await recordWrites[kind].create(session.api(), body);
    changed(kind);
    return data;
  }

  async function update<K extends RecordKind>(
    kind: K,
    id: number,
    body: Record<string, unknown>,
  ): Promise<RecordOfKind[K]> {
    const { data } = await recordWrites[kind].update(session.api(), id, body);
    changed(kind);
    return data;
  }

  /** Venues and organizers go to the trash (restorable); terms are deleted for good. */
  async function remove<K extends RecordKind>(kind: K, id: number): Promise<RecordOfKind[K]> {
    const { data } = await recordWrites[kind].remove(session.api(), id);
    changed(kind);
    return data;
  }

  /**
   * Merges the venue or organizer `id` into `into` (administrators): its events move to `into`, and it goes to the
   * trash. Events change too, so every list is read again.
   */
  async function merge(kind: 'venues' | 'organizers', id: number, into: number): Promise<MergeAnswer> {
    const { data } = await session.api().call(`POST ${kind}/:id/merge`, { params: { id }, body: { into } });
    changed(kind);
    return data;
  }

  return { revision, page, all, trashed, create, update, remove, merge, invalidateAll };
});
