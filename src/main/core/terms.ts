import type { Language, TaxonomyKind } from '../../shared/enums';
import type { CalendarStore, Transaction } from '../store/store';
import type { StoredTerm } from '../store/schema';
import { toPlainText } from './html';
import { slugify, uniqueSlug } from './slugs';
import { nowUtc } from './posts';
import { listToArray } from './values';

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
