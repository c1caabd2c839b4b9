import type { TaxonomyKind } from '../../../shared/enums';
import {
  addTerm,
  changeTerm,
  findTerm,
  removeTerm,
  termsOf,
  type NewTerm,
  type TermChanges,
} from '../../core/terms';
import type { StoredTerm } from '../../store/schema';
import type { CalendarStore } from '../../store/store';
import { ApiError, refusedWrite } from '../errors';
import { termArchiveArgs, termCreateArgs, termIdArgs, termUpdateArgs } from '../args/termArgs';
import { presentTerm } from '../present/term';
import { categoryArchiveSchema, tagArchiveSchema, termResponseSchema } from '../../../shared/schemas/records';
import { clampPerPage, termArchive } from './paginate';
import { checkIfMatch, etagOf } from './etag';
import { anyone, termManagers } from './permissions';
import {
  endpoint,
  ID_PARAM,
  type ApiRequest,
  type ApiResponse,
  type BareRequest,
  type RouteDef,
} from './table';
import { textOf } from '../../core/values';

const PLURAL = { category: 'categories', tag: 'tags' } as const;

const termEtag = (term: StoredTerm) => etagOf('term', term);

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
    // Own keys only: `__proto__` or `constructor` from the query would find Object.prototype's members.
    const key = Object.hasOwn(ORDER_BY, orderby) ? ORDER_BY[orderby] : ORDER_BY.name;
    terms.sort((a, b) => {
      const left = key!(a, store);
      const right = key!(b, store);
      return left < right ? -1 : left > right ? 1 : a.id - b.id;
    });
  }
  if (args.order !== undefined && textOf(args.order).toLowerCase() !== 'asc') terms = terms.reverse();
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

function checkRaw(taxonomy: TaxonomyKind, raw: Record<string, unknown>) {
  if (taxonomy === 'tag' && raw.parent !== undefined) {
    throw new ApiError(
      400,
      'rest_taxonomy_not_hierarchical',
      'Cannot set parent term, taxonomy is not hierarchical.',
    );
  }
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
  const { store, caller, now } = request;
  checkRaw(taxonomy, request.raw);
  const term = await addTerm(taxonomy, request.args as NewTerm, {
    store,
    caller,
    now,
    language: request.recordLanguage,
  }).catch(refusedWrite);
  return {
    ...single(term, request, 201),
    headers: { ETag: termEtag(term), Location: `${request.links.nsRoot}${PLURAL[taxonomy]}/${term.id}` },
  };
}

async function update(
  taxonomy: TaxonomyKind,
  request: ApiRequest<{ id: ReturnType<typeof termIdArgs>['id'] }>,
): Promise<ApiResponse> {
  const { store, caller, now } = request;
  checkRaw(taxonomy, request.raw);
  const term = await changeTerm(request.args.id!, request.args as TermChanges, {
    store,
    caller,
    now,
    beforeWrite: (current) => checkIfMatch(request.ctx, termEtag(current)),
  }).catch(refusedWrite);
  return single(term, request);
}

async function remove(
  taxonomy: TaxonomyKind,
  request: ApiRequest<{ id: ReturnType<typeof termIdArgs>['id'] }>,
): Promise<ApiResponse> {
  const { store, caller, now } = request;
  // The answer is the term as it was, counted before its events lose it.
  let before: unknown;
  await removeTerm(request.args.id!, {
    store,
    caller,
    now,
    beforeWrite: (current) => {
      checkIfMatch(request.ctx, termEtag(current));
      before = presentTerm(current, request.env);
    },
  }).catch(refusedWrite);
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
