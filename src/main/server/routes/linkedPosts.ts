import type { PostStatus } from '../../../shared/enums';
import { canChangePost, canReadPost } from '../../core/capabilities';
import {
  addLinkedPost,
  changeLinkedPost,
  trashLinkedPost,
  type OrganizerInput,
  type VenueInput,
} from '../../core/linkedPosts';
import { shownOrganizerIds, shownVenueId } from '../../core/eventLinks';
import { nowUtc } from '../../core/posts';
import type { StoredEvent, StoredOrganizer, StoredVenue } from '../../store/schema';
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
import { archiveStatuses, statusEcho } from '../args/common';
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
  readonly size: number;
  get(id: number): LinkedPost | undefined;
  values(): IterableIterator<LinkedPost>;
  getByKey(key: string): LinkedPost | undefined;
}

/** Each collection's posts in archive order, from the last request that sorted them. */
const archiveOrder = new WeakMap<Posts, LinkedPost[]>();

/**
 * The posts newest first (post date, then id, descending), sorted again only after a change. Records are
 * replaced on every change, never modified in place, so the cached order still holds exactly when it has as
 * many posts as the collection and each is the collection's current record (a check without sorting).
 */
function newestFirst(posts: Posts): LinkedPost[] {
  const cached = archiveOrder.get(posts);
  if (cached && cached.length === posts.size && cached.every((post) => posts.get(post.id) === post))
    return cached;
  const sorted = [...posts.values()].sort((a, b) =>
    a.dateUtc < b.dateUtc ? 1 : a.dateUtc > b.dateUtc ? -1 : b.id - a.id,
  );
  archiveOrder.set(posts, sorted);
  return sorted;
}

/** Where the two kinds differ; everything else is shared. */
interface KindRules {
  kind: Kind;
  plural: 'venues' | 'organizers';
  posts: (store: CalendarStore) => Posts;
  /** Events linking to a post of this kind. */
  linkedEvents: (store: CalendarStore, id: number) => Set<number> | undefined;
  searchFields: (post: LinkedPost) => string[];
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
  linkedEvents: (store, id) => store.eventIndex.byVenue.get(id),
  searchFields: (post) => {
    const venue = post as StoredVenue;
    return [
      venue.name,
      venue.description,
      venue.excerpt,
      venue.address,
      venue.city,
      venue.province,
      venue.state,
      venue.stateprovince,
      venue.zip,
      venue.phone,
    ];
  },
  present: (post, env, options) => presentVenue(post as StoredVenue, env, options),
};

const ORGANIZER: KindRules = {
  kind: 'organizer',
  plural: 'organizers',
  posts: (store) => store.organizers,
  linkedEvents: (store, id) => store.eventIndex.byOrganizer.get(id),
  searchFields: (post) => {
    const organizer = post as StoredOrganizer;
    return [
      organizer.name,
      organizer.description,
      organizer.excerpt,
      organizer.phone,
      organizer.email,
      organizer.website,
    ];
  },
  present: (post, env, options) => presentOrganizer(post as StoredOrganizer, env, options),
};

/** Venue/organizer search (REFERENCE §4.7): any one field must contain every fragment of the text. */
function searchMatcher(text: string, rules: KindRules) {
  const fragments = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter(Boolean);
  return (post: LinkedPost) =>
    rules.searchFields(post).some((field) => {
      const haystack = field.toLowerCase();
      return fragments.every((fragment) => haystack.includes(fragment));
    });
}

function archive(
  rules: KindRules,
  request: ApiRequest<ReturnType<typeof linkedPostArchiveArgs>>,
): ApiResponse {
  const { args, store, caller, now, links } = request;
  const page = args.page ?? 1;
  const perPage = clampPerPage(args.per_page, store.settings.postsPerPage);
  const statuses = new Set<PostStatus>(archiveStatuses(args.status, caller));
  // `only_with_upcoming` looks at events of the archive's effective statuses (REFERENCE §4.7).
  const eventStatuses = statuses;
  const nowLocal = nowUtc(now);
  /** Whether an event linked to the post passes `test` (stops at the first); a trashed post shows on none. */
  const anyEvent = (post: LinkedPost, test: (event: StoredEvent) => boolean) => {
    if (post.status === 'trash') return false;
    for (const eventId of rules.linkedEvents(store, post.id) ?? []) {
      const event = store.events.get(eventId);
      if (event && test(event)) return true;
    }
    return false;
  };
  const filters: Array<(post: LinkedPost) => boolean> = [(post) => statuses.has(post.status)];
  if (args.search) {
    const matches = searchMatcher(args.search, rules);
    filters.push((post) => post.status !== 'trash' && matches(post));
  }
  if (args.event !== undefined) {
    const event = store.events.get(args.event)!;
    const linked = new Set(
      rules.kind === 'venue' ? [shownVenueId(store, event)] : shownOrganizerIds(store, event),
    );
    filters.push((post) => linked.has(post.id));
  }
  if (args.has_events !== undefined) {
    const wanted = isTruthy(args.has_events);
    filters.push(
      (post) => anyEvent(post, (event) => event.status !== 'draft' && event.status !== 'pending') === wanted,
    );
  }
  if (args.only_with_upcoming !== undefined && isTruthy(args.only_with_upcoming)) {
    filters.push((post) =>
      anyEvent(post, (event) => eventStatuses.has(event.status) && event.startUtc >= nowLocal),
    );
  }
  const language = request.raw.ml_language;
  if (language) filters.push((post) => post.language === language);
  const matching = newestFirst(rules.posts(store)).filter((post) => filters.every((filter) => filter(post)));
  const items = matching.slice((page - 1) * perPage, page * perPage).map((post) =>
    rules.present(post, request.env, {
      canEdit: request.env.editContext === true && canChangePost(caller, post, 'edit'),
      password: request.raw.password as string | undefined,
    }),
  );
  const echo: Array<[string, string]> = [
    ...(args.event !== undefined ? [['event', String(args.event)] as [string, string]] : []),
    ...(args.has_events !== undefined ? [['has_events', String(args.has_events)] as [string, string]] : []),
    // The effective status, as the reference echoes it: `any` for editors who sent none.
    ['status', statusEcho(args.status, [...statuses])],
  ];
  return postArchive(
    rules.kind,
    items,
    { total: matching.length, page, perPage },
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
  const body = rules.present(post, request.env, {
    jsonLd: true,
    canEdit: request.env.editContext === true && canChangePost(request.caller, post, 'edit'),
    password: request.raw.password as string | undefined,
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
