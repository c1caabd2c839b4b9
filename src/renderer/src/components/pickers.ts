import type { TermResponse } from '../api/records';

export interface TreeItem {
  id: number;
  name: string;
  depth: number;
}

/** Categories in tree order (parents before their children, siblings by name), each with its depth. */
export function categoryTree(terms: readonly TermResponse[]): TreeItem[] {
  const children = new Map<number, TermResponse[]>();
  const ids = new Set(terms.map((term) => term.id));
  for (const term of terms) {
    // A parent we cannot see (another language, deleted) puts the term at the top level.
    const parent = term.parent && ids.has(term.parent) ? term.parent : 0;
    children.set(parent, [...(children.get(parent) ?? []), term]);
  }
  const out: TreeItem[] = [];
  const visit = (parent: number, depth: number, seen: Set<number>) => {
    const level = [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const term of level) {
      if (seen.has(term.id)) continue;
      seen.add(term.id);
      out.push({ id: term.id, name: term.name, depth });
      visit(term.id, depth + 1, seen);
    }
  };
  visit(0, 0, new Set());
  return out;
}

/** The existing record whose name matches, ignoring case and surrounding spaces. */
export function findByName<T>(items: readonly T[], name: string, nameOf: (item: T) => string): T | undefined {
  const wanted = name.trim().toLocaleLowerCase();
  return items.find((item) => nameOf(item).trim().toLocaleLowerCase() === wanted);
}
