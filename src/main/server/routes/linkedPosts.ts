import type { PostStatus } from '../../../shared/enums';
import { canChangePost, canReadPost } from '../../core/capabilities';
import {
  addLinkedPost,
  changeLinkedPost,
  trashLinkedPost,
  type OrganizerInput,
  type VenueInput,
} from '../../core/linkedPosts';
import { runLinkedPostQuery, type LinkedPostQuery } from '../../core/linkedPostQuery';
import type { StoredOrganizer, StoredVenue } from '../../store/schema';
import type { CalendarStore } from '../../store/store';
import { ApiError, refusedWrite } from '../errors';
import {
  linkedPostArchiveArgs,
  linkedPostIdArgs,
  linkedPostSlugArgs,
  organizerCreateArgs,
  organizerUpdateArgs,
  venueCreateArgs,
  venueUpdateArgs,
} from '../args/linkedPostArgs';
import { archiveStatuses } from '../../core/archiveQuery';
import { statusEcho } from '../args/common';
import { isTruthy } from '../args/wpTypes';
import { presentOrganizer, presentVenue } from '../present/linkedPosts';
import {
  organizerArchiveSchema,
  organizerResponseSchema,
  venueArchiveSchema,
  venueResponseSchema,
} from '../../../shared/schemas/records';
import { clampPerPage, postArchive } from './paginate';
import { checkIfMatch, etagOf } from './etag';
import { anyone, postChangers, postCreators } from './permissions';
import type { ArgValues } from '../args/define';
import {
  endpoint,
  ID_PARAM,
  type ApiRequest,
  type ApiResponse,
  type BareRequest,
  type RouteDef,
} from './table';
import type { PresentEnv } from '../present/common';

type Kind = 'venue' | 'organizer';
type LinkedPost = StoredVenue | StoredOrganizer;

/** The store's collection of one kind. */
interface Posts {
  get(id: number): LinkedPost | undefined;
  getByKey(key: string): LinkedPost | undefined;
}

/** Where the two kinds differ; everything else is shared. */
interface KindRules {
  kind: Kind;
  plural: 'venues' | 'organizers';
  posts: (store: CalendarStore) => Posts;
  present: (
    post: LinkedPost,
    env: PresentEnv,
    options?: { jsonLd?: boolean; password?: string; canEdit?: boolean },
  ) => unknown;
}

const VENUE: KindRules = {
  kind: 'venue',
  plural: 'venues',
  posts: (store) => store.venues,
  present: (post, env, options) => presentVenue(post as StoredVenue, env, options),
};

const ORGANIZER: KindRules = {
  kind: 'organizer',
  plural: 'organizers',
  posts: (store) => store.organizers,
  present: (post, env, options) => presentOrganizer(post as StoredOrganizer, env, options),
};

function archive(
  rules: KindRules,
  request: ApiRequest<ReturnType<typeof linkedPostArchiveArgs>>,
): ApiResponse {
  const { args, store, caller, now, links } = request;
  const page = args.page ?? 1;
  const perPage = clampPerPage(args.per_page, store.settings.postsPerPage);
  const statuses = new Set<PostStatus>(archiveStatuses(args.status, caller));
  const query: LinkedPostQuery = {
    statuses,
    search: args.search,
    eventId: args.event,
    hasEvents: args.has_events !== undefined ? isTruthy(args.has_events) : undefined,
    onlyWithUpcoming: args.only_with_upcoming !== undefined && isTruthy(args.only_with_upcoming),
    language: request.raw.ml_language as string | undefined,
    now,
  };
  const { total, items } = runLinkedPostQuery(rules.kind, query, store, {
    offset: (page - 1) * perPage,
    limit: perPage,
  });
  const presented = items.map((post) => {
    const canEdit = request.env.editContext === true && canChangePost(caller, post, 'edit');
    return rules.present(post, request.env, {
      canEdit,
      password: request.postPassword(
        { kind: rules.kind, id: post.id, password: post.password },
        { visibleAnyway: canEdit, single: false },
      ),
    });
  });
  const echo: Array<[string, string]> = [
    ...(args.event !== undefined ? [['event', String(args.event)] as [string, string]] : []),
    ...(args.has_events !== undefined ? [['has_events', String(args.has_events)] as [string, string]] : []),
    // The effective status, as the reference echoes it: `any` for editors who sent none.
    ['status', statusEcho(args.status, [...statuses])],
  ];
  return postArchive(
    rules.kind,
    presented,
    { total, page, perPage },
    `${links.nsRoot}${rules.plural}/`,
    echo,
  );
}

function requirePost(rules: KindRules, store: CalendarStore, id: number): LinkedPost {
  const post = rules.posts(store).get(id);
  if (!post)
    throw new ApiError(400, 'rest_invalid_param', 'Invalid parameter(s): id', {
      params: { id: 'Invalid parameter.' },
      details: [],
    });
  return post;
}

function read(rules: KindRules, request: BareRequest, post: LinkedPost): ApiResponse {
  if (!canReadPost(request.caller, post)) {
    throw new ApiError(403, `${rules.kind}-not-accessible`, `The requested ${rules.kind} is not accessible`);
  }
  const canEdit = request.env.editContext === true && canChangePost(request.caller, post, 'edit');
  const body = rules.present(post, request.env, {
    jsonLd: true,
    canEdit,
    password: request.postPassword(
      { kind: rules.kind, id: post.id, password: post.password },
      { visibleAnyway: canEdit, single: true },
    ),
  });
  return { body, headers: { ETag: etagOf(rules.kind, post) } };
}

async function create(
  rules: KindRules,
  request: ApiRequest<typeof venueCreateArgs | typeof organizerCreateArgs>,
): Promise<ApiResponse> {
  const { store, caller, now } = request;
  const post = await addLinkedPost(rules.kind, request.args as VenueInput | OrganizerInput, {
    store,
    caller,
    now,
    language: request.recordLanguage,
  }).catch(refusedWrite);
  return {
    status: 201,
    body: rules.present(post, request.env, { canEdit: true }),
    headers: {
      ETag: etagOf(rules.kind, post),
      Location: `${request.links.nsRoot}${rules.plural}/${post.id}`,
    },
  };
}

/** `If-Match` against the post as it is, checked once the write's rules have passed. */
const ifMatch = (rules: KindRules, request: BareRequest) => (current: LinkedPost) =>
  checkIfMatch(request.ctx, etagOf(rules.kind, current));

async function update(rules: KindRules, request: BareRequest, id: number): Promise<ApiResponse> {
  const { store, caller, now } = request;
  requirePost(rules, store, id);
  const post = await changeLinkedPost(rules.kind, id, request.args as VenueInput | OrganizerInput, {
    store,
    caller,
    now,
    beforeWrite: ifMatch(rules, request),
  }).catch(refusedWrite);
  return {
    body: rules.present(post, request.env, { canEdit: true }),
    headers: { ETag: etagOf(rules.kind, post) },
  };
}

async function trash(rules: KindRules, request: BareRequest, id: number): Promise<ApiResponse> {
  const { store, caller, now } = request;
  requirePost(rules, store, id);
  const post = await trashLinkedPost(rules.kind, id, {
    store,
    caller,
    now,
    beforeWrite: ifMatch(rules, request),
  }).catch(refusedWrite);
  return {
    body: rules.present(post, request.env, { canEdit: true }),
    headers: { ETag: etagOf(rules.kind, post) },
  };
}

function routesFor(rules: KindRules): RouteDef[] {
  const createArgs = rules.kind === 'venue' ? venueCreateArgs : organizerCreateArgs;
  const updateArgs = rules.kind === 'venue' ? venueUpdateArgs : organizerUpdateArgs;
  const idArgs = linkedPostIdArgs(rules.kind);
  const slugArgs = linkedPostSlugArgs(rules.kind);
  const schema = rules.kind === 'venue' ? venueResponseSchema : organizerResponseSchema;
  const one = (description: string) => ({ description, schema });
  const errors = {
    '400': { description: 'Invalid parameters' },
    '401': { description: 'Credentials needed' },
    '403': { description: 'Not allowed' },
  };
  const findBySlug = (store: CalendarStore, args: ArgValues<typeof slugArgs>) =>
    rules.posts(store).getByKey(String(args.slug).toLowerCase());
  const bySlug = (request: ApiRequest<typeof slugArgs>) => findBySlug(request.store, request.args)!.id;
  /** Who may change the post an id or slug route names. */
  const changersById = (action: 'edit' | 'delete') =>
    postChangers<typeof idArgs>(action, (store, args) => rules.posts(store).get(args.id!));
  const changersBySlug = (action: 'edit' | 'delete') => postChangers<typeof slugArgs>(action, findBySlug);
  const Name = rules.kind === 'venue' ? 'venue' : 'organizer';
  return [
    {
      pattern: `/${rules.plural}`,
      path: `/${rules.plural}`,
      docPath: `/${rules.plural}`,
      endpoints: [
        endpoint({
          methods: ['GET'],
          args: linkedPostArchiveArgs(rules.plural),
          permission: anyone,
          handle: (request) => archive(rules, request),
          doc: {
            summary: `List ${rules.plural}`,
            responses: {
              '200': {
                description: `${Name} archive page`,
                schema: rules.kind === 'venue' ? venueArchiveSchema : organizerArchiveSchema,
              },
              ...errors,
              '404': { description: 'Page past the end' },
            },
          },
        }),
        endpoint({
          methods: ['POST'],
          args: createArgs,
          permission: postCreators,
          handle: (request) => create(rules, request),
          doc: {
            summary: `Create a ${Name} (an existing one with the same name is re-used)`,
            responses: { '201': one(`The ${Name}`), ...errors },
          },
        }),
      ],
    },
    {
      pattern: `/${rules.plural}/(?P<id>\\d+)`,
      path: `/${rules.plural}/:id`,
      docPath: `/${rules.plural}/{id}`,
      params: ID_PARAM,
      endpoints: [
        endpoint({
          methods: ['GET'],
          args: idArgs,
          permission: anyone,
          handle: (request) => read(rules, request, requirePost(rules, request.store, request.args.id!)),
          doc: {
            summary: `Read a ${Name}`,
            responses: { '200': one(`The ${Name}, with json_ld`), ...errors },
          },
        }),
        endpoint({
          methods: ['DELETE'],
          args: idArgs,
          permission: changersById('delete'),
          handle: (request) => trash(rules, request, request.args.id!),
          doc: {
            summary: `Move a ${Name} to the trash (its events show it again once it is restored)`,
            responses: {
              '200': one(`The trashed ${Name}`),
              '410': { description: 'Already trashed' },
              '412': { description: 'If-Match failed' },
              ...errors,
            },
          },
        }),
        endpoint({
          methods: ['POST', 'PUT', 'PATCH'],
          args: { ...idArgs, ...updateArgs },
          permission: changersById('edit'),
          handle: (request) => update(rules, request, request.args.id!),
          doc: {
            summary: `Update a ${Name} (only the sent fields change)`,
            responses: {
              '200': one(`The updated ${Name}`),
              '412': { description: 'If-Match failed' },
              ...errors,
            },
          },
        }),
      ],
    },
    {
      pattern: `/${rules.plural}/by-slug/(?P<slug>[^/]+)`,
      path: `/${rules.plural}/by-slug/:slug`,
      docPath: `/${rules.plural}/by-slug/{slug}`,
      endpoints: [
        endpoint({
          methods: ['GET'],
          args: slugArgs,
          permission: anyone,
          handle: (request) => read(rules, request, rules.posts(request.store).get(bySlug(request))!),
          doc: { summary: `Read a ${Name} by slug`, responses: { '200': one(`The ${Name}`), ...errors } },
        }),
        endpoint({
          methods: ['DELETE'],
          args: slugArgs,
          permission: changersBySlug('delete'),
          handle: (request) => trash(rules, request, bySlug(request)),
          doc: {
            summary: `Trash a ${Name} by slug`,
            responses: {
              '200': one(`The trashed ${Name}`),
              '410': { description: 'Already trashed' },
              '412': { description: 'If-Match failed' },
              ...errors,
            },
          },
        }),
        endpoint({
          methods: ['POST', 'PUT', 'PATCH'],
          args: { ...slugArgs, ...updateArgs },
          permission: changersBySlug('edit'),
          handle: (request) => update(rules, request, bySlug(request)),
          doc: {
            summary: `Update a ${Name} by slug`,
            responses: {
              '200': one(`The updated ${Name}`),
              '412': { description: 'If-Match failed' },
              ...errors,
            },
          },
        }),
      ],
    },
  ];
}

export const venueRoutes = routesFor(VENUE);
export const organizerRoutes = routesFor(ORGANIZER);
