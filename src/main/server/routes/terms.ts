import type { TaxonomyKind } from '../../../shared/enums';
import { conflictingTerm, createTerm, findTerm, termsOf, uniqueTermSlug } from '../../core/terms';
import { nowUtc } from '../../core/posts';
import { slugify } from '../../core/slugs';
import { toPlainText } from '../../core/html';
import type { StoredTerm } from '../../store/schema';
import type { CalendarStore } from '../../store/store';
import { ApiError } from '../errors';
import { termArchiveArgs, termCreateArgs, termIdArgs, termUpdateArgs } from '../args/termArgs';
import { presentTerm } from '../present/term';
import { categoryArchiveSchema, tagArchiveSchema, termResponseSchema } from '../../../shared/schemas/records';
import { clampPerPage, termArchive } from './paginate';
import { checkIfMatch } from './etag';
import { anyone, termManagers } from './permissions';
import {
  endpoint,
  ID_PARAM,
  type ApiRequest,
  type ApiResponse,
  type BareRequest,
  type RouteDef,
} from './table';

const PLURAL = { category: 'categories', tag: 'tags' } as const;

const termEtag = (term: StoredTerm) => `"term-${term.id}-${term.revision}"`;

type Orderable = (term: StoredTerm, store: CalendarStore) => string | number;
const ORDER_BY: Record<string, Orderable> = {
  id: (term) => term.id,
  term_id: (term) => term.id,
  name: (term) => term.name.toLowerCase(),
  slug: (term) => term.slug,
  term_group: () => 0,
  count: (term, store) => store.eventIndex.termCount(term.id),
  description: (term) => term.description.toLowerCase(),
  parent: (term) => term.parent,
};

/**
 * The terms a term archive lists, in its order (WordPress' `get_terms` with the archive's arguments): shared
 * by `/categories`, `/tags` and their `wp/v2` twins.
 */
export function matchingTerms(
  taxonomy: TaxonomyKind,
  store: CalendarStore,
  args: Record<string, unknown>,
  language: unknown,
): StoredTerm[] {
  // The archive arguments parse `include`/`exclude` into lists of existing ids, slugs or names.
  const ids = (refs: unknown) =>
    new Set((refs as Array<string | number>).map((ref) => findTerm(store, taxonomy, ref)!.id));
  const include = args.include !== undefined ? ids(args.include) : undefined;
  const exclude = args.exclude !== undefined ? ids(args.exclude) : undefined;
  const eventId = (args.event ?? args.post) as number | undefined;
  const attached =
    eventId !== undefined
      ? new Set([...store.events.get(eventId)!.categoryIds, ...store.events.get(eventId)!.tagIds])
      : undefined;
  const search = (args.search as string | undefined)?.toLowerCase();
  let terms = termsOf(store, taxonomy).filter(
    (term) =>
      (args.hide_empty === false || store.eventIndex.termCount(term.id) > 0) &&
      (!include || include.has(term.id)) &&
      (!exclude || !exclude.has(term.id)) &&
      (args.parent === undefined || term.parent === args.parent) &&
      (!attached || attached.has(term.id)) &&
      (!search || term.name.toLowerCase().includes(search) || term.slug.includes(search)) &&
      (args.slug === undefined || term.slug === args.slug) &&
      (!language || term.language === language),
  );
  const orderby = (args.orderby as string | undefined) ?? 'name';
  if (orderby === 'include' && args.include !== undefined) {
    const order = (args.include as Array<string | number>).map((ref) => findTerm(store, taxonomy, ref)!.id);
    terms.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  } else if (orderby !== 'none') {
    const key = ORDER_BY[orderby] ?? ORDER_BY.name;
    terms.sort((a, b) => {
      const left = key(a, store);
      const right = key(b, store);
      return left < right ? -1 : left > right ? 1 : a.id - b.id;
    });
  }
  if (args.order !== undefined && String(args.order).toLowerCase() !== 'asc') terms = terms.reverse();
  return terms;
}

function archive(
  taxonomy: TaxonomyKind,
  request: ApiRequest<ReturnType<typeof termArchiveArgs>>,
): ApiResponse {
  const { store, links } = request;
  const args = request.args as ReturnType<typeof termArchiveArgs> extends infer _
    ? Record<string, unknown>
    : never;
  const page = (args.page as number) ?? 1;
  const perPage = clampPerPage(args.per_page as number | undefined, store.settings.postsPerPage);
  const terms = matchingTerms(taxonomy, store, args, request.raw.ml_language);
  const items = terms
    .slice((page - 1) * perPage, page * perPage)
    .map((term) => presentTerm(term, request.env));
  return termArchive(
    PLURAL[taxonomy],
    items,
    { total: terms.length, page, perPage },
    `${links.nsRoot}${PLURAL[taxonomy]}/`,
  );
}

function termExists(term: StoredTerm, taxonomy: TaxonomyKind): never {
  throw new ApiError(
    400,
    'term_exists',
    // WordPress' wording: hierarchical taxonomies always say "with this parent", even at the top level.
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

function checkRaw(taxonomy: TaxonomyKind, raw: Record<string, unknown>) {
  if (taxonomy === 'tag' && raw.parent !== undefined) {
    throw new ApiError(
      400,
      'rest_taxonomy_not_hierarchical',
      'Cannot set parent term, taxonomy is not hierarchical.',
    );
  }
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
    throw new ApiError(
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

const single = (term: StoredTerm, request: BareRequest, status = 200): ApiResponse => ({
  status,
  body: presentTerm(term, request.env, { withLinks: true }),
  headers: { ETag: termEtag(term) },
});

async function create(
  taxonomy: TaxonomyKind,
  request: ApiRequest<ReturnType<typeof termCreateArgs>>,
): Promise<ApiResponse> {
  const { store, now } = request;
  checkRaw(taxonomy, request.raw);
  const args = request.args as { name: string; description?: string; slug?: string; parent?: number };
  const parent = args.parent ?? 0;
  const conflict = createConflict(store, taxonomy, toPlainText(args.name), parent, args.slug);
  if (conflict) termExists(conflict, taxonomy);
  // A taken slug is made unique on create (`wp_unique_term_slug`); only updates refuse it.
  const term = await store.mutate((tx) =>
    createTerm(tx, store, taxonomy, { ...args, parent }, request.recordLanguage, now),
  );
  return {
    ...single(term, request, 201),
    headers: { ETag: termEtag(term), Location: `${request.links.nsRoot}${PLURAL[taxonomy]}/${term.id}` },
  };
}

async function update(
  taxonomy: TaxonomyKind,
  request: ApiRequest<{ id: ReturnType<typeof termIdArgs>['id'] }>,
): Promise<ApiResponse> {
  const { store, now } = request;
  checkRaw(taxonomy, request.raw);
  const current = store.terms.get(request.args.id!)!;
  const args = request.args as { name?: string; description?: string; slug?: string; parent?: number };
  const parent = args.parent ?? current.parent;
  if (parent !== 0 && isSelfOrAncestor(store, current.id, parent)) {
    throw new ApiError(400, 'rest_term_invalid', 'A category cannot be its own parent or ancestor.');
  }
  const name = args.name !== undefined ? toPlainText(args.name) : current.name;
  const conflict = conflictingTerm(store, taxonomy, name, parent, current.id);
  if (conflict && (args.name !== undefined || args.parent !== undefined)) termExists(conflict, taxonomy);
  checkSlugFree(store, taxonomy, args.slug, current.id);
  checkIfMatch(request.ctx, termEtag(current));
  const term = await store.mutate((tx) => {
    const updated: StoredTerm = {
      ...current,
      name,
      description: args.description !== undefined ? toPlainText(args.description) : current.description,
      slug: args.slug !== undefined ? uniqueTermSlug(store, taxonomy, args.slug, current.id) : current.slug,
      parent: taxonomy === 'category' ? parent : 0,
      modifiedUtc: nowUtc(now),
      revision: current.revision + 1,
    };
    tx.putTerm(updated);
    return updated;
  });
  return single(term, request);
}

async function remove(
  taxonomy: TaxonomyKind,
  request: ApiRequest<{ id: ReturnType<typeof termIdArgs>['id'] }>,
): Promise<ApiResponse> {
  const { store, now } = request;
  const term = store.terms.get(request.args.id!)!;
  checkIfMatch(request.ctx, termEtag(term));
  const before = presentTerm(term, request.env);
  await store.mutate((tx) => {
    const modified = nowUtc(now);
    // Deleting a term removes it from its events; child categories move up to its parent (as WordPress).
    for (const eventId of [...(store.eventIndex.byTerm.get(term.id) ?? [])]) {
      const event = store.events.get(eventId)!;
      tx.putEvent({
        ...event,
        categoryIds: event.categoryIds.filter((id) => id !== term.id),
        tagIds: event.tagIds.filter((id) => id !== term.id),
        modifiedUtc: modified,
        revision: event.revision + 1,
      });
    }
    for (const child of termsOf(store, taxonomy).filter((candidate) => candidate.parent === term.id)) {
      tx.putTerm({ ...child, parent: term.parent, modifiedUtc: modified, revision: child.revision + 1 });
    }
    tx.deleteTerm(term.id);
  });
  return { body: before };
}

function routesFor(taxonomy: TaxonomyKind): RouteDef[] {
  const plural = PLURAL[taxonomy];
  const idArgs = termIdArgs(taxonomy);
  const managers = termManagers(taxonomy);
  const one = (description: string) => ({ description, schema: termResponseSchema });
  const errors = {
    '400': { description: 'Invalid parameters' },
    '401': { description: 'Credentials needed' },
    '403': { description: 'Not allowed' },
  };
  return [
    {
      pattern: `/${plural}`,
      path: `/${plural}`,
      docPath: `/${plural}`,
      endpoints: [
        endpoint({
          methods: ['GET'],
          args: termArchiveArgs(taxonomy),
          permission: anyone,
          handle: (request) => archive(taxonomy, request),
          doc: {
            summary: `List ${plural}`,
            responses: {
              '200': {
                description: `${plural} page`,
                schema: taxonomy === 'category' ? categoryArchiveSchema : tagArchiveSchema,
              },
              ...errors,
            },
          },
        }),
        endpoint({
          methods: ['POST'],
          args: termCreateArgs(taxonomy),
          permission: managers,
          handle: (request) => create(taxonomy, request),
          doc: { summary: `Create a ${taxonomy}`, responses: { '201': one(`The ${taxonomy}`), ...errors } },
        }),
      ],
    },
    {
      pattern: `/${plural}/(?P<id>\\d+)`,
      path: `/${plural}/:id`,
      docPath: `/${plural}/{id}`,
      params: ID_PARAM,
      endpoints: [
        endpoint({
          methods: ['GET'],
          args: idArgs,
          permission: anyone,
          handle: (request) => single(request.store.terms.get(request.args.id!)!, request),
          doc: { summary: `Read a ${taxonomy}`, responses: { '200': one(`The ${taxonomy}`), ...errors } },
        }),
        endpoint({
          methods: ['POST', 'PUT', 'PATCH'],
          args: { ...idArgs, ...termUpdateArgs(taxonomy) },
          permission: managers,
          handle: (request) => update(taxonomy, request),
          doc: {
            summary: `Update a ${taxonomy}`,
            responses: {
              '200': one(`The updated ${taxonomy}`),
              '412': { description: 'If-Match failed' },
              ...errors,
            },
          },
        }),
        endpoint({
          methods: ['DELETE'],
          args: idArgs,
          permission: managers,
          handle: (request) => remove(taxonomy, request),
          doc: {
            summary: `Delete a ${taxonomy} permanently`,
            responses: {
              '200': one(`The ${taxonomy} as it was`),
              '412': { description: 'If-Match failed' },
              ...errors,
            },
          },
        }),
      ],
    },
  ];
}

export const categoryRoutes = routesFor('category');
export const tagRoutes = routesFor('tag');
