import { canReadPost } from '../../core/capabilities';
import { addEvent, changeEvent, trashEvent } from '../../core/events';
import { EventRuleError, type EventInput } from '../../core/eventRecord';
import { runEventQuery } from '../../core/eventQuery';
import type { StoredEvent } from '../../store/schema';
import type { CalendarStore } from '../../store/store';
import { ApiError, invalidParam, refusedWrite } from '../errors';
import {
  eventArchiveArgs,
  eventCreateArgs,
  eventDeleteArgs,
  eventIdArgs,
  eventSlugArgs,
  eventUpdateArgs,
  sanitizeSlugLookup,
} from '../args/eventArgs';
import { archiveQueryOf } from '../args/archiveFilters';
import { statusEcho } from '../args/common';
import { canAccessProtected, editsEvent, presentEvent } from '../present/event';
import { writeEventList } from '../present/eventListJson';
import { jsonWithArray } from '../present/jsonBytes';
import { eventArchiveSchema, eventResponseSchema } from '../../../shared/schemas/records';
import { clampPerPage, postArchive } from './paginate';
import { checkIfMatch, etagOf } from './etag';
import { anyone, postChangers, postCreators } from './permissions';
import { endpoint, ID_PARAM, type ApiRequest, type ApiResponse, type RouteDef } from './table';
import { textOf } from '../../core/values';

async function archive(request: ApiRequest<typeof eventArchiveArgs>): Promise<ApiResponse> {
  const { args, store, links } = request;
  const page = args.page ?? 1;
  const perPage = clampPerPage(args.per_page, store.settings.postsPerPage);
  const { query, statuses, dateEcho } = archiveQueryOf(request);
  const { total, items } = await runEventQuery(query, store, {
    offset: (page - 1) * perPage,
    limit: perPage,
  });
  const passwordOf = (event: StoredEvent) =>
    request.postPassword(
      { kind: 'event', id: event.id, password: event.password },
      { visibleAnyway: editsEvent(event, request.env), single: false },
    );
  const bool = (value: boolean | undefined) => (value === undefined ? [] : [value ? '1' : '0']);
  const echo: Array<[string, string]> = [
    ...dateEcho,
    ...(args.search ? [['search', args.search] as [string, string]] : []),
    ['status', statusEcho(args.status, statuses)],
    ...(args.include ? [['include', args.include.join(',')] as [string, string]] : []),
    ...(args.post_parent !== undefined
      ? [['post_parent', String(args.post_parent)] as [string, string]]
      : []),
    ...bool(args.ticketed).map((value) => ['ticketed', value] as [string, string]),
    ...bool(args.geoloc).map((value) => ['geoloc', value] as [string, string]),
    ...(args.geoloc_lat !== undefined ? [['geoloc_lat', String(args.geoloc_lat)] as [string, string]] : []),
    ...(args.geoloc_lng !== undefined ? [['geoloc_lng', String(args.geoloc_lng)] as [string, string]] : []),
    ...(args.venue ? [['venue', args.venue.join(',')] as [string, string]] : []),
    ...(args.organizer ? [['organizer', args.organizer.join(',')] as [string, string]] : []),
    ...bool(args.featured).map((value) => ['featured', value] as [string, string]),
    ...(args.show_hidden ? [['show_hidden', '1'] as [string, string]] : []),
    ...(request.raw.ml_language
      ? [['ml_language', textOf(request.raw.ml_language)] as [string, string]]
      : []),
  ];
  const archive = postArchive('event', items, { total, page, perPage }, `${links.nsRoot}events/`, echo);
  // The page's JSON is assembled from each event's kept JSON (present/eventListJson.ts).
  return {
    ...archive,
    body: jsonWithArray(archive.body, 'events', (out) => writeEventList(out, items, request.env, passwordOf)),
  };
}

/** The event an id route names, or the reference's 404/400 when there is none. */
function requireEvent(store: CalendarStore, id: number): StoredEvent {
  const event = store.events.get(id);
  if (event) return event;
  if (store.venues.has(id) || store.organizers.has(id) || store.media.has(id)) {
    throw new ApiError(400, 'rest-invalid-event-id', 'The specified ID is not a valid event.');
  }
  throw new ApiError(404, 'rest-event-not-found', `Event with ID ${id} does not exist.`);
}

function single(
  event: StoredEvent,
  request: ApiRequest<typeof eventIdArgs>,
  status = 200,
  password?: string,
): ApiResponse {
  return {
    status,
    body: presentEvent(event, request.env, {
      single: status === 200 && request.ctx.method === 'GET',
      password,
    }),
    headers: { ETag: etagOf('event', event) },
  };
}

function read(request: ApiRequest<typeof eventIdArgs>, event: StoredEvent): ApiResponse {
  if (event.status === 'trash') {
    throw new ApiError(403, 'event-no-longer-available', 'This event is no longer available');
  }
  if (!canReadPost(request.caller, event)) {
    throw new ApiError(403, 'event-not-accessible', 'The requested event is not accessible');
  }
  const password = request.postPassword(
    { kind: 'event', id: event.id, password: event.password },
    { visibleAnyway: editsEvent(event, request.env), single: true },
  );
  if (!canAccessProtected(event, request.env, password)) {
    throw new ApiError(
      403,
      'event-password-protected',
      'The requested event is not accessible without a password',
    );
  }
  return single(event, request, 200, password);
}

const ruleError = (error: unknown): never => {
  if (error instanceof EventRuleError) throw invalidParam(error.field, error.message);
  return refusedWrite(error);
};

async function create(request: ApiRequest<typeof eventCreateArgs>): Promise<ApiResponse> {
  const { store, caller, now } = request;
  const event = await addEvent(request.args as EventInput, {
    store,
    caller,
    now,
    language: request.recordLanguage,
  }).catch(ruleError);
  return {
    status: 201,
    body: presentEvent(event, request.env),
    headers: { ETag: etagOf('event', event), Location: `${request.links.nsRoot}events/${event.id}` },
  };
}

/** Who may change the event an id or slug route names (or, when there is none, reach its 404). */
const changersById = (action: 'edit' | 'delete') =>
  postChangers<typeof eventIdArgs>(action, (store, args) => store.events.get(args.id!));
const changersBySlug = (action: 'edit' | 'delete') =>
  postChangers<typeof eventSlugArgs>(action, (store, args) =>
    store.eventBySlug(sanitizeSlugLookup(args.slug!)),
  );

async function update(
  request: ApiRequest<typeof eventUpdateArgs & typeof eventIdArgs>,
  id: number,
): Promise<ApiResponse> {
  const { store, caller, now } = request;
  requireEvent(store, id);
  const event = await changeEvent(id, request.args as EventInput, {
    store,
    caller,
    now,
    beforeWrite: (current) => checkIfMatch(request.ctx, etagOf('event', current)),
  }).catch(ruleError);
  return { body: presentEvent(event, request.env), headers: { ETag: etagOf('event', event) } };
}

async function trash(request: ApiRequest<typeof eventDeleteArgs>, id: number): Promise<ApiResponse> {
  const { store, caller, now } = request;
  requireEvent(store, id);
  const event = await trashEvent(id, {
    store,
    caller,
    now,
    scope: request.args.scope,
    beforeWrite: (current) => checkIfMatch(request.ctx, etagOf('event', current)),
  }).catch(ruleError);
  return { body: presentEvent(event, request.env), headers: { ETag: etagOf('event', event) } };
}

const slugToId = (request: ApiRequest<typeof eventSlugArgs>) =>
  request.store.eventBySlug(sanitizeSlugLookup(request.args.slug!))!.id;

const record = (description: string) => ({ description, schema: eventResponseSchema });
const errors = {
  '400': { description: 'Invalid parameters' },
  '401': { description: 'Credentials needed' },
  '403': { description: 'Not allowed' },
  '404': { description: 'Not found' },
};

export const eventRoutes: RouteDef[] = [
  {
    pattern: '/events',
    path: '/events',
    docPath: '/events',
    endpoints: [
      endpoint({
        methods: ['GET'],
        args: eventArchiveArgs,
        permission: anyone,
        handle: archive,
        doc: {
          summary: 'List events (archive)',
          responses: { '200': { description: 'Events archive page', schema: eventArchiveSchema }, ...errors },
        },
      }),
      endpoint({
        methods: ['POST'],
        args: eventCreateArgs,
        permission: postCreators,
        handle: create,
        doc: { summary: 'Create an event', responses: { '201': record('The created event'), ...errors } },
      }),
    ],
  },
  {
    pattern: '/events/(?P<id>\\d+)',
    path: '/events/:id',
    docPath: '/events/{id}',
    params: ID_PARAM,
    endpoints: [
      endpoint({
        methods: ['GET'],
        args: eventIdArgs,
        permission: anyone,
        handle: (request) => read(request, requireEvent(request.store, request.args.id!)),
        doc: { summary: 'Read an event', responses: { '200': record('The event, with json_ld'), ...errors } },
      }),
      endpoint({
        methods: ['DELETE'],
        args: eventDeleteArgs,
        permission: changersById('delete'),
        handle: (request) => trash(request, request.args.id!),
        doc: {
          summary: 'Move an event to the trash',
          responses: {
            '200': record('The trashed event'),
            '410': { description: 'Already trashed' },
            '412': { description: 'If-Match failed' },
            ...errors,
          },
        },
      }),
      endpoint({
        methods: ['POST', 'PUT', 'PATCH'],
        args: { ...eventIdArgs, ...eventUpdateArgs },
        permission: changersById('edit'),
        handle: (request) => update(request, request.args.id!),
        doc: {
          summary: 'Update an event (only the sent fields change)',
          responses: {
            '200': record('The updated event'),
            '412': { description: 'If-Match failed' },
            ...errors,
          },
        },
      }),
    ],
  },
  {
    pattern: '/events/by-slug/(?P<slug>[^/]+)',
    path: '/events/by-slug/:slug',
    docPath: '/events/by-slug/{slug}',
    endpoints: [
      endpoint({
        methods: ['GET'],
        args: eventSlugArgs,
        permission: anyone,
        handle: (request) =>
          read(
            request as unknown as ApiRequest<typeof eventIdArgs>,
            request.store.events.get(slugToId(request))!,
          ),
        doc: {
          summary: 'Read an event by slug',
          responses: { '200': record('The event, with json_ld'), ...errors },
        },
      }),
      endpoint({
        methods: ['DELETE'],
        args: { ...eventSlugArgs, scope: eventDeleteArgs.scope },
        permission: changersBySlug('delete'),
        handle: (request) =>
          trash(request as unknown as ApiRequest<typeof eventDeleteArgs>, slugToId(request)),
        doc: {
          summary: 'Move an event to the trash by slug',
          responses: {
            '200': record('The trashed event'),
            '410': { description: 'Already trashed' },
            '412': { description: 'If-Match failed' },
            ...errors,
          },
        },
      }),
      endpoint({
        methods: ['POST', 'PUT', 'PATCH'],
        args: { ...eventUpdateArgs, ...eventSlugArgs },
        permission: changersBySlug('edit'),
        handle: (request) =>
          update(
            request as unknown as ApiRequest<typeof eventUpdateArgs & typeof eventIdArgs>,
            slugToId(request),
          ),
        doc: {
          summary: 'Update an event by slug',
          responses: {
            '200': record('The updated event'),
            '412': { description: 'If-Match failed' },
            ...errors,
          },
        },
      }),
    ],
  },
];
