import { z } from 'zod';
import { TAXONOMIES, TAXONOMY_WIRE_NAME, WP_V2_NAMESPACE, type TaxonomyKind } from '../../../shared/enums';
import { ApiError } from '../errors';
import type { Links } from '../links';
import { presentWpTerm, WP_V2_REST_BASE } from '../present/term';
import { arg, type ArgSpec } from '../args/define';
import { termArchiveArgs } from '../args/termArgs';
import { wpBoolean, wpInteger } from '../args/wpTypes';
import { matchingTerms } from './terms';
import { anyone } from './permissions';
import { endpoint, ID_PARAM, type ApiRequest, type ApiResponse, type Endpoint, type RouteDef } from './table';

/**
 * The read routes of WordPress' own `wp/v2` namespace that term answers link to (`_links` self, collection,
 * up, about): the categories (`tribe_events_cat`) and tags, one by one and as lists, and their taxonomies,
 * in WordPress' shapes. A WordPress client following those links gets an answer instead of a 404. Reading
 * only: categories and tags are written through `cal/events/v1`, where the calendar's rules live.
 */

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

const termIdArg = {
  id: arg(wpInteger(), {
    description: 'Unique identifier for the term.',
    type: 'integer',
    required: true,
    in: 'path',
  }),
};
const taxonomyArg = {
  taxonomy: arg(z.string(), {
    description: 'An alphanumeric identifier for the taxonomy.',
    type: 'string',
    required: true,
    in: 'path',
  }),
};

/** Read-only public routes: whoever may read the calendar may read these. */
function read<Spec extends ArgSpec>(
  args: Spec,
  summary: string,
  handle: (request: ApiRequest<Spec>) => ApiResponse,
): Endpoint {
  return endpoint({ methods: ['GET'], args, permission: anyone, handle, doc: { summary, responses: {} } });
}

/** The `wp/v2` routes, dispatched like every other route (server/dispatch.ts). */
export function wpV2TermRoutes(): RouteDef[] {
  const termRoutes = TAXONOMIES.flatMap((taxonomy): RouteDef[] => {
    const base = WP_V2_REST_BASE[taxonomy];
    return [
      {
        pattern: `/${base}`,
        path: `/${base}`,
        docPath: `/${base}`,
        endpoints: [
          read(collectionArgs(taxonomy), `List ${TAXONOMY_INFO[taxonomy].name}`, ({ args, store, env }) => {
            const values = args as Record<string, unknown>;
            const page = (values.page as number | undefined) ?? 1;
            const perPage = (values.per_page as number | undefined) ?? 10;
            const terms = matchingTerms(taxonomy, store, values, undefined);
            return {
              body: terms.slice((page - 1) * perPage, page * perPage).map((term) => presentWpTerm(term, env)),
              headers: {
                'X-WP-Total': String(terms.length),
                'X-WP-TotalPages': String(Math.ceil(terms.length / perPage)),
              },
            };
          }),
        ],
      },
      {
        pattern: `/${base}/(?P<id>[\\d]+)`,
        path: `/${base}/:id`,
        docPath: `/${base}/{id}`,
        params: ID_PARAM,
        endpoints: [
          read(termIdArg, `One of the ${TAXONOMY_INFO[taxonomy].name}`, ({ args, store, env }) => {
            const term = store.terms.get(args.id!);
            if (!term || term.taxonomy !== taxonomy) throw TERM_INVALID();
            return { body: presentWpTerm(term, env) };
          }),
        ],
      },
    ];
  });
  return [
    ...termRoutes,
    {
      pattern: '/taxonomies',
      path: '/taxonomies',
      docPath: '/taxonomies',
      endpoints: [
        read({}, 'The taxonomies', ({ links }) => ({
          body: Object.fromEntries(
            TAXONOMIES.map((taxonomy) => [TAXONOMY_WIRE_NAME[taxonomy], presentTaxonomy(taxonomy, links)]),
          ),
        })),
      ],
    },
    {
      pattern: '/taxonomies/(?P<taxonomy>[\\w-]+)',
      path: '/taxonomies/:taxonomy',
      docPath: '/taxonomies/{taxonomy}',
      endpoints: [
        read(taxonomyArg, 'One taxonomy', ({ args, links }) => {
          const taxonomy = TAXONOMIES.find((kind) => TAXONOMY_WIRE_NAME[kind] === args.taxonomy);
          if (!taxonomy) throw new ApiError(404, 'rest_taxonomy_invalid', 'Invalid taxonomy.');
          return { body: presentTaxonomy(taxonomy, links) };
        }),
      ],
    },
  ];
}
