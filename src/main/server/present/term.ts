import { TAXONOMY_WIRE_NAME, WP_V2_NAMESPACE } from '../../../shared/enums';
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
    uid: term.uid,
  };
}

/** A term as the /categories and /tags endpoints return it (REFERENCE §3.8). */
export function presentTerm(
  term: StoredTerm,
  env: PresentEnv,
  options: { withLinks?: boolean; count?: number } = {},
) {
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
    uid: term.uid,
  };
  if (!options.withLinks) return body;
  return { ...body, _links: termLinks(term, env) };
}

/** The methods the `wp/v2` term routes answer (for every caller: they are read-only). */
export const WP_V2_TERM_METHODS: readonly string[] = ['GET'];

/** Where a term's `wp/v2` twin lives: `{api root}wp/v2/tribe_events_cat` or `…/tags`. */
export const WP_V2_REST_BASE = { category: 'tribe_events_cat', tag: 'tags' } as const;

/**
 * WordPress' hypermedia links of a term (REFERENCE §3.8), to the read-only `wp/v2` routes we serve. `self`
 * carries `targetHints.allow` as WordPress 6.7+ does (`WP_REST_Server::get_target_hints_for_link`: the
 * `Allow` header its route would send this caller), which here is reading only (writes go through
 * `cal/events/v1`). The original's `wp:post_type` link is left out:
 * we serve no `wp/v2` post routes.
 */
export function termLinks(term: StoredTerm, env: Pick<PresentEnv, 'links'>) {
  const collection = `${env.links.apiRoot}${WP_V2_NAMESPACE}/${WP_V2_REST_BASE[term.taxonomy]}`;
  return {
    self: [{ href: `${collection}/${term.id}`, targetHints: { allow: [...WP_V2_TERM_METHODS] } }],
    collection: [{ href: collection }],
    about: [
      { href: `${env.links.apiRoot}${WP_V2_NAMESPACE}/taxonomies/${TAXONOMY_WIRE_NAME[term.taxonomy]}` },
    ],
    ...(term.parent ? { up: [{ embeddable: true, href: `${collection}/${term.parent}` }] } : {}),
    curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
  };
}

/** A term as WordPress' own `wp/v2` term routes show it (`WP_REST_Terms_Controller`, view context). */
export function presentWpTerm(term: StoredTerm, env: PresentEnv) {
  return {
    id: term.id,
    count: env.store.eventIndex.termCount(term.id),
    description: term.description,
    link: termLink(term, env),
    name: term.name,
    slug: term.slug,
    taxonomy: TAXONOMY_WIRE_NAME[term.taxonomy],
    ...(term.taxonomy === 'category' ? { parent: term.parent } : {}),
    meta: [] as unknown[],
    _links: termLinks(term, env),
  };
}
