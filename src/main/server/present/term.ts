import { TAXONOMY_WIRE_NAME } from '../../../shared/enums';
import type { StoredTerm } from '../../store/schema';
import type { PresentEnv } from './common';
import { categoryPath } from '../../core/terms';

const REST_BASE = { category: 'categories', tag: 'tags' } as const;

function termUrls(term: StoredTerm, env: PresentEnv) {
  const collection = `${env.links.nsRoot}${REST_BASE[term.taxonomy]}`;
  return {
    self: `${collection}/${term.id}`,
    collection,
    ...(term.parent ? { up: `${collection}/${term.parent}` } : {}),
  };
}

/** Public archive page of a term: a category's address names its ancestors too, as WordPress' does. */
export function termLink(term: StoredTerm, env: Pick<PresentEnv, 'store' | 'links'>): string {
  if (term.taxonomy === 'tag') return `${env.links.siteUrl}/tag/${term.slug}/`;
  const path = categoryPath(env.store, term).map((category) => category.slug);
  return `${env.links.siteUrl}/events/category/${path.join('/')}/`;
}

/** A term as embedded in an event (REFERENCE §3.7: the raw WP term object, `term_id` renamed to `id`). */
export function presentEmbeddedTerm(term: StoredTerm, env: PresentEnv) {
  return {
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: TAXONOMY_WIRE_NAME[term.taxonomy],
    description: term.description,
    parent: term.parent,
    count: env.store.eventIndex.termCount(term.id),
    filter: 'raw',
    id: term.id,
    urls: termUrls(term, env),
    language: term.language,
  };
}

/** A term as the /categories and /tags endpoints return it (REFERENCE §3.8). */
export function presentTerm(
  term: StoredTerm,
  env: PresentEnv,
  options: { withLinks?: boolean; count?: number } = {},
) {
  const restBase = term.taxonomy === 'category' ? 'tribe_events_cat' : 'tags';
  const body = {
    id: term.id,
    count: options.count ?? env.store.eventIndex.termCount(term.id),
    description: term.description,
    name: term.name,
    slug: term.slug,
    taxonomy: TAXONOMY_WIRE_NAME[term.taxonomy],
    ...(term.taxonomy === 'category' ? { parent: term.parent } : {}),
    meta: [] as unknown[],
    url: termLink(term, env),
    urls: termUrls(term, env),
    language: term.language,
  };
  if (!options.withLinks) return body;
  const wp = `${env.links.apiRoot}wp/v2`;
  return {
    ...body,
    _links: {
      self: [{ href: `${wp}/${restBase}/${term.id}` }],
      collection: [{ href: `${wp}/${restBase}` }],
      about: [{ href: `${wp}/taxonomies/${TAXONOMY_WIRE_NAME[term.taxonomy]}` }],
      ...(term.parent ? { up: [{ href: `${wp}/${restBase}/${term.parent}`, embeddable: true }] } : {}),
      'wp:post_type': [{ href: `${wp}/tribe_events?${restBase}=${term.id}` }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    },
  };
}
