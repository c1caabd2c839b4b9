import Router from '@koa/router';
import type Koa from 'koa';
import qs from 'qs';
import { TAXONOMIES, TAXONOMY_WIRE_NAME, type TaxonomyKind } from '../../../shared/enums';
import type { CalendarStore } from '../../store/store';
import { ApiError } from '../errors';
import type { Links } from '../links';
import type { PresentEnv } from '../present/common';
import { presentWpTerm, WP_V2_REST_BASE, WP_V2_TERM_METHODS } from '../present/term';
import { arg, validateArgs, type ArgSpec } from '../args/define';
import { termArchiveArgs } from '../args/termArgs';
import { wpBoolean, wpInteger } from '../args/wpTypes';
import type { MaybeCaller } from '../../core/capabilities';
import { matchingTerms } from './terms';
import { paginationLink } from './paginate';

/**
 * The read routes of WordPress' own `wp/v2` namespace that term answers link to (`_links` self, collection,
 * up, about): the categories (`tribe_events_cat`) and tags, one by one and as lists, and their taxonomies,
 * in WordPress' shapes. A WordPress client following those links gets an answer instead of a 404. Reading
 * only: categories and tags are written through `cal/events/v1`, where the calendar's rules live.
 */
export const WP_V2_NAMESPACE = 'wp/v2';

/** WordPress caps `per_page` of its own collections at 100 (a larger value is a 400, not clamped). */
const WP_MAX_PER_PAGE = 100;

/**
 * WordPress core's term collection arguments: those of the plugin's term archives (which are core's), with
 * core's own `per_page` (1-100) and `hide_empty` default (false).
 */
function collectionArgs(taxonomy: TaxonomyKind): ArgSpec {
  const plugin = termArchiveArgs(taxonomy);
  return {
    ...plugin,
    per_page: arg(
      wpInteger().refine((value) => value >= 1 && value <= WP_MAX_PER_PAGE, {
        error: `per_page must be between 1 (inclusive) and ${WP_MAX_PER_PAGE} (inclusive)`,
      }),
      { ...plugin.per_page.meta, description: 'Maximum number of items to be returned in result set.' },
    ),
    hide_empty: arg(wpBoolean(), { ...plugin.hide_empty.meta, default: false }),
  };
}

/** `register_taxonomy` labels and settings, as `wp/v2/taxonomies` shows them. */
const TAXONOMY_INFO: Record<TaxonomyKind, { name: string; hierarchical: boolean }> = {
  category: { name: 'Event Categories', hierarchical: true },
  tag: { name: 'Tags', hierarchical: false },
};

function presentTaxonomy(taxonomy: TaxonomyKind, links: Links) {
  return {
    name: TAXONOMY_INFO[taxonomy].name,
    slug: TAXONOMY_WIRE_NAME[taxonomy],
    description: '',
    types: ['tribe_events'],
    hierarchical: TAXONOMY_INFO[taxonomy].hierarchical,
    rest_base: WP_V2_REST_BASE[taxonomy],
    rest_namespace: WP_V2_NAMESPACE,
    _links: {
      collection: [{ href: `${links.apiRoot}${WP_V2_NAMESPACE}/taxonomies` }],
      'wp:items': [{ href: `${links.apiRoot}${WP_V2_NAMESPACE}/${WP_V2_REST_BASE[taxonomy]}` }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    },
  };
}

const TERM_INVALID = () => new ApiError(404, 'rest_term_invalid', 'Term does not exist.');

export function wpV2TermRoutes({ store, clock }: { store: CalendarStore; clock: () => Date }): Router {
  const router = new Router({ sensitive: false, strict: false });
  const stateOf = (ctx: Koa.Context) => ctx.state as { caller: MaybeCaller; links: Links };
  const envOf = (ctx: Koa.Context): PresentEnv => ({
    store,
    links: stateOf(ctx).links,
    caller: stateOf(ctx).caller,
    now: clock(),
  });
  /** Answers once what it shows is on disk, as the other reads do (CalendarStore.readSettled). */
  const answer = async (
    ctx: Koa.Context,
    build: () => { body: unknown; headers?: Record<string, string> },
  ) => {
    const { body, headers } = await store.readSettled(build);
    ctx.set({ Allow: WP_V2_TERM_METHODS.join(', '), ...headers });
    ctx.body = body;
  };

  for (const taxonomy of TAXONOMIES) {
    const base = `/${WP_V2_REST_BASE[taxonomy]}`;
    const spec = collectionArgs(taxonomy);
    router.get(base, (ctx) =>
      answer(ctx, () => {
        const raw = qs.parse(ctx.querystring, { arrayLimit: 200, depth: 3, parameterLimit: 1000 });
        const args = validateArgs(spec, raw, { store, caller: stateOf(ctx).caller }) as Record<
          string,
          unknown
        >;
        const page = (args.page as number | undefined) ?? 1;
        const perPage = (args.per_page as number | undefined) ?? 10;
        const terms = matchingTerms(taxonomy, store, args, undefined);
        const totalPages = Math.ceil(terms.length / perPage);
        const link = paginationLink(new URL(ctx.originalUrl, stateOf(ctx).links.siteUrl), totalPages);
        const env = envOf(ctx);
        return {
          body: terms.slice((page - 1) * perPage, page * perPage).map((term) => presentWpTerm(term, env)),
          headers: {
            'X-WP-Total': String(terms.length),
            'X-WP-TotalPages': String(totalPages),
            ...(link ? { Link: link } : {}),
          },
        };
      }),
    );
    router.get(`${base}/:id`, async (ctx, next) => {
      if (!/^\d+$/.test(ctx.params.id)) return next(); // not the route: 404 rest_no_route, as WordPress
      await answer(ctx, () => {
        const term = store.terms.get(Number(ctx.params.id));
        if (!term || term.taxonomy !== taxonomy) throw TERM_INVALID();
        return { body: presentWpTerm(term, envOf(ctx)) };
      });
    });
  }
  router.get('/taxonomies', (ctx) =>
    answer(ctx, () => ({
      body: Object.fromEntries(
        TAXONOMIES.map((taxonomy) => [
          TAXONOMY_WIRE_NAME[taxonomy],
          presentTaxonomy(taxonomy, stateOf(ctx).links),
        ]),
      ),
    })),
  );
  router.get('/taxonomies/:taxonomy', (ctx) =>
    answer(ctx, () => {
      const taxonomy = TAXONOMIES.find((kind) => TAXONOMY_WIRE_NAME[kind] === ctx.params.taxonomy);
      if (!taxonomy) throw new ApiError(404, 'rest_taxonomy_invalid', 'Invalid taxonomy.');
      return { body: presentTaxonomy(taxonomy, stateOf(ctx).links) };
    }),
  );
  return router;
}
