import { givenUid, newUid } from './uids';
import type { Language, TaxonomyKind } from '../../shared/enums';
import type { CalendarStore, Transaction } from '../store/store';
import type { StoredTerm } from '../store/schema';
import { toPlainText } from './html';
import { slugify, uniqueSlug } from './slugs';
import { nowUtc } from './posts';
import { listToArray } from './values';
import { canManageTerms } from './capabilities';
import { withinWriteBudget } from './writeBudget';
import { refuseUnless, WriteRefused, type RecordWriteCall, type WriteCall } from './writes';

export function termsOf(store: CalendarStore, taxonomy: TaxonomyKind): StoredTerm[] {
  return [...store.terms.values()].filter((term) => term.taxonomy === taxonomy);
}

/** Every category below `id` (children, their children, …); safe against parent loops. */
export function categoryDescendants(store: CalendarStore, id: number): number[] {
  const found: number[] = [];
  const seen = new Set([id]);
  const queue = [id];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const term of store.terms.values()) {
      if (term.taxonomy !== 'category' || term.parent !== parent || seen.has(term.id)) continue;
      seen.add(term.id);
      found.push(term.id);
      queue.push(term.id);
    }
  }
  return found;
}

/** A category and its ancestors, root first (the path of its public address); safe against parent loops. */
export function categoryPath(store: CalendarStore, term: StoredTerm): StoredTerm[] {
  const path = [term];
  const seen = new Set([term.id]);
  for (let parent = store.terms.get(term.parent); parent && !seen.has(parent.id);) {
    path.unshift(parent);
    seen.add(parent.id);
    parent = store.terms.get(parent.parent);
  }
  return path;
}

/** A term of the taxonomy by id, slug or name (WordPress `term_exists`). */
export function findTerm(
  store: CalendarStore,
  taxonomy: TaxonomyKind,
  ref: string | number,
): StoredTerm | undefined {
  if (typeof ref === 'number') {
    const term = store.terms.get(ref);
    return term?.taxonomy === taxonomy ? term : undefined;
  }
  const wanted = ref.trim().toLowerCase();
  let byName: StoredTerm | undefined;
  for (const term of store.terms.values()) {
    if (term.taxonomy !== taxonomy) continue;
    if (term.slug === wanted) return term;
    if (!byName && term.name.toLowerCase() === wanted) byName = term;
  }
  return byName;
}

/** Same-name term under the same parent (categories) or anywhere (tags): WordPress' `term_exists` conflict. */
export function conflictingTerm(
  store: CalendarStore,
  taxonomy: TaxonomyKind,
  name: string,
  parent: number,
  selfId?: number,
): StoredTerm | undefined {
  const wanted = name.trim().toLowerCase();
  return termsOf(store, taxonomy).find(
    (term) =>
      term.id !== selfId &&
      term.name.toLowerCase() === wanted &&
      (taxonomy === 'tag' || term.parent === parent),
  );
}

export function uniqueTermSlug(
  store: CalendarStore,
  taxonomy: TaxonomyKind,
  wanted: string,
  selfId?: number,
): string {
  const taken = (slug: string) =>
    termsOf(store, taxonomy).some((term) => term.slug === slug && term.id !== selfId);
  return uniqueSlug(slugify(wanted), taken, 'term');
}

export interface NewTerm {
  name: string;
  /** Create only: the uid an administrator's sync brings from another Calendar Desk (see `addTerm`). */
  uid?: string;
  slug?: string;
  description?: string;
  parent?: number;
}

/** Creates a term (callers have checked for conflicts). */
export function createTerm(
  tx: Transaction,
  store: CalendarStore,
  taxonomy: TaxonomyKind,
  input: NewTerm,
  language: Language,
  now: Date,
): StoredTerm {
  const name = toPlainText(input.name);
  const term: StoredTerm = {
    id: tx.nextTermId(),
    uid: input.uid ?? newUid(),
    taxonomy,
    name,
    slug: uniqueTermSlug(store, taxonomy, input.slug ?? name),
    description: toPlainText(input.description ?? ''),
    parent: taxonomy === 'category' ? (input.parent ?? 0) : 0,
    language,
    modifiedUtc: nowUtc(now),
    revision: 1,
  };
  tx.putTerm(term);
  return term;
}

/**
 * An event's `categories`/`tags` value as term ids (REFERENCE §5.3): ids of existing terms are kept (unknown
 * ids skipped); names and slugs resolve to existing terms or create new ones. Duplicates are removed.
 */
export function resolveEventTerms(
  tx: Transaction,
  store: CalendarStore,
  taxonomy: TaxonomyKind,
  value: unknown,
  language: Language,
  now: Date,
): number[] {
  const ids: number[] = [];
  for (const ref of listToArray(value)) {
    if (typeof ref === 'number') {
      if (findTerm(store, taxonomy, ref)) ids.push(ref);
      continue;
    }
    if (typeof ref !== 'string') continue;
    const term =
      findTerm(store, taxonomy, ref) ?? createTerm(tx, store, taxonomy, { name: ref }, language, now);
    ids.push(term.id);
  }
  return [...new Set(ids)];
}

/*
 * Category and tag writes as one store change each (the API and the sync's pull call these). `createTerm`
 * above is the step inside a change (an event naming a new term).
 */

/** WordPress' refusal of a same-name term: hierarchical taxonomies always say "with this parent". */
function termExists(term: StoredTerm, taxonomy: TaxonomyKind): never {
  throw new WriteRefused(
    400,
    'term_exists',
    taxonomy === 'category'
      ? 'A term with the name provided already exists with this parent.'
      : 'A term with the name provided already exists in this taxonomy.',
    { term_id: term.id },
  );
}

/**
 * `wp_insert_term`'s duplicate rule: a same-name term (same parent for categories) is a conflict unless the
 * client asked for a slug of its own that no sibling uses.
 */
function createConflict(
  store: CalendarStore,
  taxonomy: TaxonomyKind,
  name: string,
  parent: number,
  slug: string | undefined,
): StoredTerm | undefined {
  const nameMatch = conflictingTerm(store, taxonomy, name, parent);
  if (!nameMatch) return undefined;
  const wanted = slugify(slug ?? name);
  if (slug === undefined || nameMatch.slug === wanted) return nameMatch;
  const slugMatch = termsOf(store, taxonomy).find((term) => term.slug === wanted);
  if (!slugMatch) return undefined;
  return taxonomy === 'tag' ? nameMatch : slugMatch.parent === parent ? slugMatch : undefined;
}

/** `wp_update_term`: another term of the taxonomy already has the wanted slug. */
function checkSlugFree(
  store: CalendarStore,
  taxonomy: TaxonomyKind,
  slug: string | undefined,
  selfId: number,
) {
  if (slug === undefined) return;
  const wanted = slugify(slug);
  if (termsOf(store, taxonomy).some((term) => term.slug === wanted && term.id !== selfId)) {
    throw new WriteRefused(
      400,
      'duplicate_term_slug',
      `The slug &#8220;${wanted}&#8221; is already in use by another term.`,
    );
  }
}

/** Whether `ancestor` is `id` itself or one of its ancestors. */
function isSelfOrAncestor(store: CalendarStore, ancestor: number, id: number): boolean {
  const seen = new Set<number>();
  for (let current: number | undefined = id; current && !seen.has(current);) {
    if (current === ancestor) return true;
    seen.add(current);
    current = store.terms.get(current)?.parent;
  }
  return false;
}

/** A parent must be an existing category (the API's arguments check it before; the sync's pull relies on this). */
function checkParentExists(store: CalendarStore, parent: number) {
  if (parent !== 0 && findTerm(store, 'category', parent) === undefined) {
    throw new WriteRefused(400, 'rest_invalid_param', 'Invalid parameter(s): parent', {
      params: { parent: 'Invalid parameter.' },
      details: [],
    });
  }
}

/** Creates a category or tag for a caller who may manage them; a same-name sibling is refused (`term_exists`). */
export async function addTerm(
  taxonomy: TaxonomyKind,
  input: NewTerm,
  call: WriteCall & { language: Language },
): Promise<StoredTerm> {
  const { store, caller } = call;
  refuseUnless(canManageTerms(caller, taxonomy), caller);
  const parent = input.parent ?? 0;
  checkParentExists(store, parent);
  const conflict = createConflict(store, taxonomy, toPlainText(input.name), parent, input.slug);
  if (conflict) termExists(conflict, taxonomy);
  // A taken slug is made unique on create (`wp_unique_term_slug`); only updates refuse it.
  const uid = givenUid(input.uid, caller, store.terms.values());
  return withinWriteBudget(call, (tx) =>
    createTerm(tx, store, taxonomy, { ...input, parent, uid }, call.language, call.now),
  );
}

/** The sent fields of a term update (absent: unchanged). */
export type TermChanges = Partial<NewTerm>;

/**
 * Patches the term `id` (which exists) for a caller who may manage its taxonomy. A category's parent must
 * exist and must not be the category itself or one of its descendants (`rest_term_invalid`).
 */
export async function changeTerm(
  id: number,
  input: TermChanges,
  call: RecordWriteCall<StoredTerm>,
): Promise<StoredTerm> {
  const { store, caller, now } = call;
  const current = store.terms.get(id)!;
  const taxonomy = current.taxonomy;
  refuseUnless(canManageTerms(caller, taxonomy), caller);
  const parent = input.parent ?? current.parent;
  if (input.parent !== undefined) checkParentExists(store, parent);
  if (parent !== 0 && isSelfOrAncestor(store, current.id, parent)) {
    throw new WriteRefused(400, 'rest_term_invalid', 'A category cannot be its own parent or ancestor.');
  }
  const name = input.name !== undefined ? toPlainText(input.name) : current.name;
  const conflict = conflictingTerm(store, taxonomy, name, parent, current.id);
  if (conflict && (input.name !== undefined || input.parent !== undefined)) termExists(conflict, taxonomy);
  checkSlugFree(store, taxonomy, input.slug, current.id);
  call.beforeWrite?.(current);
  return store.mutate((tx) => {
    const updated: StoredTerm = {
      ...current,
      name,
      description: input.description !== undefined ? toPlainText(input.description) : current.description,
      slug: input.slug !== undefined ? uniqueTermSlug(store, taxonomy, input.slug, current.id) : current.slug,
      parent: taxonomy === 'category' ? parent : 0,
      modifiedUtc: nowUtc(now),
      revision: current.revision + 1,
    };
    tx.putTerm(updated);
    return updated;
  });
}

/**
 * Deletes the term `id` (which exists) for a caller who may manage its taxonomy: its events lose it and its
 * child categories move up to its parent, as in WordPress. Returns the term as it was.
 */
export async function removeTerm(id: number, call: RecordWriteCall<StoredTerm>): Promise<StoredTerm> {
  const { store, caller, now } = call;
  const term = store.terms.get(id)!;
  refuseUnless(canManageTerms(caller, term.taxonomy), caller);
  call.beforeWrite?.(term);
  await store.mutate((tx) => {
    const modified = nowUtc(now);
    for (const eventId of [...(store.eventIndex.byTerm.get(term.id) ?? [])]) {
      const event = store.events.get(eventId)!;
      tx.putEvent({
        ...event,
        categoryIds: event.categoryIds.filter((termId) => termId !== term.id),
        tagIds: event.tagIds.filter((termId) => termId !== term.id),
        modifiedUtc: modified,
        revision: event.revision + 1,
      });
    }
    for (const child of termsOf(store, term.taxonomy).filter((candidate) => candidate.parent === term.id)) {
      tx.putTerm({ ...child, parent: term.parent, modifiedUtc: modified, revision: child.revision + 1 });
    }
    tx.deleteTerm(term.id, modified);
  });
  return term;
}
