import type Koa from 'koa';
import getRawBody from 'raw-body';
import type { CalendarStore } from '../../store/store';
import type { Caller, MaybeCaller } from '../../core/capabilities';
import { ApiError } from '../errors';
import type { ApiContext, ApiState } from '../state';
import { CalendarObjects } from '../../dav/calendarObjects';
import { CALENDAR_DESK_NS, DavError, propstats, type Requested } from './multistatus';
import {
  DAV_ROOT,
  WELL_KNOWN,
  calendarPath,
  homePath,
  objectPath,
  principalPath,
  targetOf,
  type Target,
} from './paths';
import { collectionProperties, objectProperties, type PropertyContext } from './properties';
import { runReport } from './reports';
import { deleteObject, putObject } from './writes';
import { buildXml, child, DAV, el, parseXml, XmlRefused, type XmlOut } from '../../dav/xml';

/** Request bodies CalDAV reads at most (an XML request, or one resource's iCalendar). */
export const DAV_BODY_LIMIT = 1024 * 1024;

const DAV_METHODS = [
  'OPTIONS',
  'PROPFIND',
  'PROPPATCH',
  'REPORT',
  'GET',
  'HEAD',
  'PUT',
  'DELETE',
  'MKCALENDAR',
  'MKCOL',
  'MOVE',
  'COPY',
  'POST',
  'LOCK',
  'UNLOCK',
];
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT';
/** The bare address answers CalDAV's discovery methods only; its GET is the app's page. */
const ROOT_METHODS = ['OPTIONS', 'PROPFIND', 'REPORT'];

const CHALLENGE = 'Basic realm="Calendar Desk", charset="UTF-8"';

function plain(ctx: Koa.Context, status: number, message: string): void {
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `${message}\n`;
}

function xml(ctx: Koa.Context, status: number, root: XmlOut): void {
  ctx.status = status;
  ctx.type = 'application/xml; charset=utf-8';
  ctx.body = buildXml(root);
}

async function readBody(ctx: Koa.Context): Promise<string> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > DAV_BODY_LIMIT)
    throw new DavError(
      413,
      CALENDAR_DESK_NS,
      'too-large',
      `The request body is larger than ${DAV_BODY_LIMIT / 1024} KiB.`,
    );
  try {
    return await getRawBody(ctx.req, { limit: DAV_BODY_LIMIT, encoding: 'utf8' });
  } catch (error) {
    const status = (error as { status?: number }).status ?? 400;
    throw new DavError(
      status === 413 ? 413 : 400,
      CALENDAR_DESK_NS,
      status === 413 ? 'too-large' : 'unreadable-body',
      status === 413
        ? `The request body is larger than ${DAV_BODY_LIMIT / 1024} KiB.`
        : 'The request body could not be read.',
    );
  }
}

/** The caller, from HTTP Basic (a login and an application password) or a Bearer token; 401 without. */
function callerOf(ctx: ApiContext, identify: (ctx: ApiContext) => MaybeCaller): Caller | null {
  if (!ctx.get('Authorization')) return null;
  return identify(ctx);
}

/** Which requested names a PROPFIND asks for. */
function propfindRequest(body: string): Requested {
  const root = parseXml(body);
  if (!root) return { all: true, names: [] };
  if (root.ns !== DAV || root.name !== 'propfind')
    throw new DavError(
      400,
      CALENDAR_DESK_NS,
      'bad-request',
      'A PROPFIND body must be a DAV:propfind element.',
    );
  const prop = child(root, DAV, 'prop');
  if (prop) return { all: false, names: prop.children.map(({ ns, name }) => ({ ns, name })) };
  if (child(root, DAV, 'propname')) return { all: true, names: [] };
  return { all: true, names: [] };
}

/** What every CalDAV request is answered with: the store, its calendar objects, who calls, and the clock. */
interface DavServer {
  store: CalendarStore;
  objects: CalendarObjects;
  identify: (ctx: ApiContext) => MaybeCaller;
  clock: () => Date;
}

/**
 * The CalDAV server (RFC 4791, RFC 6578, discovery by RFC 6764 and RFC 5397) on the local server, beside the
 * REST API and behind the same Host/Origin guard: `/.well-known/caldav`, the bare address for discovery
 * methods, and everything under `/dav/`. Every request but OPTIONS needs a user's login and application
 * password (HTTP Basic), checked and throttled as the API's sign-ins; what each user sees and may change is
 * decided by the same core rules as the API's.
 */
export function caldavRoutes(
  store: CalendarStore,
  identify: (ctx: ApiContext) => MaybeCaller,
  clock: () => Date,
): Koa.Middleware<ApiState> {
  const dav: DavServer = { store, objects: new CalendarObjects(store), identify, clock };
  return async (ctx, next) => {
    const path = ctx.path;
    if (path === WELL_KNOWN || path === `${WELL_KNOWN}/`) {
      ctx.status = 301;
      ctx.set('Location', DAV_ROOT);
      ctx.set('Cache-Control', 'no-store');
      return;
    }
    const underDav = path === '/dav' || path.startsWith(DAV_ROOT);
    if (!underDav && !(path === '/' && ROOT_METHODS.includes(ctx.method))) return void (await next());
    ctx.set('Cache-Control', 'no-store');
    ctx.set('DAV', '1, 3, calendar-access');
    try {
      await answer(ctx, dav);
    } catch (error) {
      if (!answerRefusal(ctx, error)) throw error;
    }
  };
}

/** A refusal thrown while answering, as CalDAV clients read it; false for any other error. */
function answerRefusal(ctx: ApiContext, error: unknown): boolean {
  if (error instanceof XmlRefused)
    xml(ctx, error.status, new DavError(error.status, CALENDAR_DESK_NS, 'bad-xml', error.message).body());
  else if (error instanceof DavError) xml(ctx, error.status, error.body());
  else if (error instanceof ApiError) {
    for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
    if (error.status === 401) ctx.set('WWW-Authenticate', CHALLENGE);
    plain(ctx, error.status, error.message);
  } else return false;
  return true;
}

/** One CalDAV request under the server's addresses: checked for its method, caller and target, then done. */
async function answer(ctx: ApiContext, dav: DavServer): Promise<void> {
  const method = ctx.method;
  if (!DAV_METHODS.includes(method)) {
    ctx.set('Allow', ALLOW);
    return plain(ctx, 405, `${method} is not a CalDAV method this server answers.`);
  }
  if (method === 'OPTIONS') {
    ctx.set('Allow', ALLOW);
    ctx.status = 200;
    ctx.body = '';
    return;
  }
  const target = targetOf(ctx.path);
  const caller = callerOf(ctx, dav.identify);
  if (!caller) {
    ctx.set('WWW-Authenticate', CHALLENGE);
    return plain(
      ctx,
      401,
      'Sign in with your Calendar Desk login and an application password (Settings, Calendar apps).',
    );
  }
  if (!target)
    return plain(ctx, 404, 'Nothing is at this address. Your calendar is at ' + calendarPath(caller.login));
  if ('login' in target && target.login.toLowerCase() !== caller.login.toLowerCase())
    return plain(ctx, 403, `You can reach only your own calendar, at ${calendarPath(caller.login)}.`);
  const context: PropertyContext = { store: dav.store, objects: dav.objects, caller };
  if (method === 'PROPFIND') return propfind(ctx, context, target);
  if (method === 'REPORT') return report(ctx, context, target);
  if (method === 'PROPPATCH') return proppatch(ctx);
  if (target.kind !== 'object') return collectionMethod(ctx, caller);
  return objectMethod(ctx, dav, caller, target.name);
}

/** A REPORT (calendar-query, calendar-multiget, sync-collection), on the calendar collection only. */
async function report(ctx: ApiContext, context: PropertyContext, target: Target): Promise<void> {
  if (target.kind !== 'calendar')
    throw new DavError(403, DAV, 'supported-report', 'Reports are answered on the calendar collection.');
  const root = parseXml(await readBody(ctx));
  if (!root) throw new DavError(400, CALENDAR_DESK_NS, 'bad-request', 'A REPORT needs a body.');
  const responses = await context.store.readSettled(() => runReport(context, root));
  return xml(ctx, 207, el(DAV, 'multistatus', responses));
}

/** GET of a collection says where the calendar is; nothing else is done to collections here. */
function collectionMethod(ctx: ApiContext, caller: Caller): void {
  if (ctx.method === 'GET' || ctx.method === 'HEAD')
    return plain(ctx, 200, `Calendar Desk's CalDAV server. Your calendar: ${calendarPath(caller.login)}`);
  ctx.set('Allow', 'OPTIONS, PROPFIND, REPORT');
  throw new DavError(
    403,
    DAV,
    'resource-must-be-null',
    'Calendars and folders cannot be created, changed or removed here.',
  );
}

/** GET, HEAD, PUT or DELETE of one event resource (`name`) of the caller's calendar. */
async function objectMethod(ctx: ApiContext, dav: DavServer, caller: Caller, name: string): Promise<void> {
  const { store, objects, clock } = dav;
  const method = ctx.method;
  if (method === 'GET' || method === 'HEAD') {
    const found = await store.readSettled(() => {
      const object = objects.get(caller, name);
      return object ? objects.render(caller, object) : null;
    });
    if (!found)
      return plain(ctx, 404, 'No event of yours is at this address (it was deleted, or you may not see it).');
    ctx.set('ETag', found.etag);
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.body = found.text;
    return;
  }
  if (method === 'PUT') {
    const text = await readBody(ctx);
    return putObject(ctx, { store, objects, caller, clock }, name, text);
  }
  if (method === 'DELETE') return deleteObject(ctx, { store, objects, caller, clock }, name);
  ctx.set('Allow', ALLOW);
  return plain(ctx, 405, `${method} is not supported on an event.`);
}

async function propfind(ctx: ApiContext, context: PropertyContext, target: Target): Promise<void> {
  const depth = (ctx.get('Depth') || 'infinity').trim().toLowerCase();
  if (depth !== '0' && depth !== '1')
    throw new DavError(
      403,
      DAV,
      'propfind-finite-depth',
      'PROPFIND with Depth: infinity is refused: ask with Depth 0 or 1.',
    );
  const requested = propfindRequest(await readBody(ctx));
  const responses = await context.store.readSettled(() =>
    propfindResponses(context, target, selfHref(ctx.path, target), depth === '1', requested),
  );
  if (!responses) return plain(ctx, 404, 'No event of yours is at this address.');
  xml(ctx, 207, el(DAV, 'multistatus', responses));
}

/** The address a collection answers as: the bare address or `/dav/` for the root, else the path with its `/`. */
function selfHref(path: string, target: Target): string {
  if (target.kind === 'root') return path === '/' ? '/' : DAV_ROOT;
  return path.endsWith('/') ? path : `${path}/`;
}

/** A PROPFIND's responses: the target (at `self`), and with `children` (Depth 1) what it holds; null: no such event. */
function propfindResponses(
  context: PropertyContext,
  target: Target,
  self: string,
  children: boolean,
  requested: Requested,
): XmlOut[] | null {
  const { caller, objects } = context;
  const out: XmlOut[] = [];
  const add = (href: string, properties: ReturnType<typeof collectionProperties>) =>
    out.push(el(DAV, 'response', [el(DAV, 'href', href), ...propstats(properties, requested)]));
  const collection = (kind: Target, href: string) => add(href, collectionProperties(context, kind));
  if (target.kind === 'object') {
    const object = objects.get(caller, target.name);
    if (!object) return null;
    add(objectPath(caller.login, object.name), objectProperties(context, object));
    return out;
  }
  collection(target, self);
  if (!children) return out;
  const login = caller.login;
  if (target.kind === 'root') {
    collection({ kind: 'principals' }, `${DAV_ROOT}principals/`);
    collection({ kind: 'calendars' }, `${DAV_ROOT}calendars/`);
  } else if (target.kind === 'principals') collection({ kind: 'principal', login }, principalPath(login));
  else if (target.kind === 'calendars') collection({ kind: 'home', login }, homePath(login));
  else if (target.kind === 'home') collection({ kind: 'calendar', login }, calendarPath(login));
  else if (target.kind === 'calendar')
    for (const object of objects.list(caller).values())
      add(objectPath(login, object.name), objectProperties(context, object));
  return out;
}

/** Properties cannot be changed (the calendar's name and colour are the site's): each is refused, 403. */
async function proppatch(ctx: ApiContext): Promise<void> {
  const root = parseXml(await readBody(ctx));
  const names = (root?.children ?? []).flatMap((update) =>
    (child(update, DAV, 'prop')?.children ?? []).map(({ ns, name }) => el(ns, name)),
  );
  xml(
    ctx,
    207,
    el(DAV, 'multistatus', [
      el(DAV, 'response', [
        el(DAV, 'href', ctx.path),
        el(DAV, 'propstat', [el(DAV, 'prop', names), el(DAV, 'status', 'HTTP/1.1 403 Forbidden')]),
        el(DAV, 'responsedescription', "The calendar's properties are set in Calendar Desk itself."),
      ]),
    ]),
  );
}
