import type { TaxonomyKind } from '../../../shared/enums';
import { findTerm } from '../../core/terms';
import { arg, optionalAll, type CheckContext } from './define';
import { pageArg, perPageArg, uidArg, withoutUid } from './common';
import { nonEmptyString, termRefList, wpBoolean, wpInteger } from './wpTypes';

const NAMES = { category: 'event category', tag: 'event tag' } as const;
const PLURAL = { category: 'event categories', tag: 'event tags' } as const;

/** Every listed term exists in the taxonomy, by id, slug or name (WP `term_exists`). */
export const existingTerms =
  (taxonomy: TaxonomyKind) =>
  (refs: Array<string | number>, { store }: CheckContext) =>
    refs.length > 0 && refs.every((ref) => findTerm(store, taxonomy, ref) !== undefined);

const existingEvent = (id: number, { store }: CheckContext) => store.events.has(id);

/** `GET /categories`, `GET /tags` (REFERENCE §2.5); tags have no `parent`. */
export function termArchiveArgs(taxonomy: TaxonomyKind) {
  return {
    page: pageArg(),
    per_page: perPageArg(PLURAL[taxonomy]),
    search: arg(nonEmptyString(), {
      description: 'Limit results to those matching a string',
      type: 'string',
      in: 'query',
    }),
    exclude: arg(
      termRefList(),
      { description: 'Ensure result set exclude specific IDs', items: { type: 'integer' }, in: 'query' },
      existingTerms(taxonomy),
    ),
    include: arg(
      termRefList(),
      { description: 'Limit result set to specific IDs', items: { type: 'integer' }, in: 'query' },
      existingTerms(taxonomy),
    ),
    order: arg(nonEmptyString(), {
      description: 'Order sort attribute ascending or descending',
      type: 'string',
      in: 'query',
    }),
    orderby: arg(nonEmptyString(), {
      description: 'Sort collection by term attribute',
      type: 'string',
      in: 'query',
    }),
    hide_empty: arg(wpBoolean(), {
      description: 'Whether to hide terms not assigned to any posts',
      type: 'boolean',
      default: true,
      in: 'query',
    }),
    ...(taxonomy === 'category'
      ? {
          parent: arg(
            wpInteger(),
            {
              description: 'Limit result set to terms assigned to a specific parent',
              type: 'integer',
              in: 'query',
            },
            (id, { store }) => id === 0 || findTerm(store, 'category', id) !== undefined,
          ),
        }
      : {}),
    post: arg(
      wpInteger(),
      { description: 'Limit result set to terms assigned to a specific post', type: 'integer', in: 'query' },
      existingEvent,
    ),
    event: arg(
      wpInteger(),
      {
        description:
          'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)',
        type: 'integer',
        in: 'query',
      },
      existingEvent,
    ),
    slug: arg(nonEmptyString(), {
      description: 'Limit result set to terms with a specific slug',
      type: 'string',
      in: 'query',
    }),
  };
}

/** Create arguments of a term. */
export function termCreateArgs(taxonomy: TaxonomyKind) {
  const name = NAMES[taxonomy];
  return {
    name: arg(nonEmptyString(), {
      description: `The ${name} name`,
      type: 'string',
      required: true,
      in: 'body',
    }),
    description: arg(nonEmptyString(), {
      description: `The ${name} description`,
      type: 'string',
      in: 'body',
    }),
    slug: arg(nonEmptyString(), { description: `The ${name} slug`, type: 'string', in: 'body' }),
    ...(taxonomy === 'category'
      ? {
          parent: arg(
            wpInteger(),
            { description: 'The event category parent term ID', type: 'integer', in: 'body' },
            (id, { store }) => id === 0 || findTerm(store, 'category', id) !== undefined,
          ),
        }
      : {}),
    uid: uidArg(),
  };
}

export const termUpdateArgs = (taxonomy: TaxonomyKind) => optionalAll(withoutUid(termCreateArgs(taxonomy)));

export function termIdArgs(taxonomy: TaxonomyKind) {
  return {
    id: arg(
      wpInteger(),
      { description: `the ${NAMES[taxonomy]} term ID`, type: 'integer', required: true, in: 'path' },
      (id, { store }) => findTerm(store, taxonomy, id) !== undefined,
    ),
  };
}
