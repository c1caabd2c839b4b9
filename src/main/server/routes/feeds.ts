import { createHash } from 'node:crypto';
import type Koa from 'koa';
import type { CalendarStore } from '../../store/store';
import type { StoredEvent } from '../../store/schema';
import { exportIcs } from '../../exchange/ics';
import { publishedEventPages } from '../../sync/publishedPages';
import type { FeedSecret, FeedState } from '../../core/feeds/secret';
import { feedEvents, feedIncludes, feedWindowStartUtc, type FeedScope } from '../../core/feeds/select';
import { feedsOverview } from '../../core/feeds/addresses';
import { htmlToText } from '../../core/html';
import { findTerm } from '../../core/terms';
import { ApiError } from '../errors';
import { administrators } from './permissions';
import { endpoint, type ApiRequest, type RouteDef } from './table';

/** `/feeds/<secret>/calendar.ics`, `/feeds/<secret>/category/<slug>.ics`, `/feeds/<secret>/venue/<slug>.ics` */
const FEED_PATH = /^\/feeds\/([^/]+)\/(?:(calendar)|(category|venue)\/([^/]+))\.ics$/;

interface BuiltFeed {
  key: string;
  body: string;
  etag: string;
}

/** A feed's scope and name from its path, or null when nothing by that name is published. */
function scopeOf(
  store: CalendarStore,
  kind: 'calendar' | 'category' | 'venue',
  slug: string,
): { scope: FeedScope; name: string } | null {
  const site = htmlToText(store.settings.siteName);
  if (kind === 'calendar') return { scope: { kind: 'calendar' }, name: site };
  if (kind === 'category') {
    const term = findTerm(store, 'category', slug);
    return term
      ? { scope: { kind: 'category', categoryId: term.id }, name: `${site}: ${htmlToText(term.name)}` }
      : null;
  }
  const venue = store.venues.getByKey(slug.toLowerCase());
  if (!venue || venue.status !== 'publish' || venue.password !== '') return null;
  return { scope: { kind: 'venue', venueId: venue.id }, name: `${site}: ${htmlToText(venue.name)}` };
}

/**
 * Built feeds, reused while the store and the day (which moves the past window) stay the same: a calendar
 * app polling every few minutes costs a lookup, and with `If-None-Match` not even the bytes.
 */
class FeedCache {
  private readonly entries = new Map<string, BuiltFeed>();
  private pages: { version: number; map: Map<number, string> } | null = null;

  constructor(private readonly store: CalendarStore) {}

  get(path: string, since: string, build: (pages: Map<number, string>) => { body: string }): BuiltFeed {
    const key = `${this.store.version}|${since}|${path}`;
    const cached = this.entries.get(path);
    if (cached?.key === key) return cached;
    if (this.pages?.version !== this.store.version)
      this.pages = { version: this.store.version, map: publishedEventPages(this.store) };
    const { body } = build(this.pages.map);
    // From the content alone: the same feed has the same tag after a restart, and a new one after any change.
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
    const built = { key, body, etag };
    if (this.entries.size >= 256) this.entries.clear();
    this.entries.set(path, built);
    return built;
  }
}

/** The feed as iCalendar: DTSTAMP is the last change of its events, so an unchanged feed is byte-identical. */
function renderFeed(
  store: CalendarStore,
  events: StoredEvent[],
  named: { scope: FeedScope; name: string },
  pages: Map<number, string>,
): string {
  const lastChange = events.reduce(
    (latest, event) => (event.modifiedUtc > latest ? event.modifiedUtc : latest),
    '',
  );
  const stamp = lastChange ? new Date(`${lastChange.replace(' ', 'T')}Z`) : new Date(0);
  return exportIcs(store, stamp, events, {
    name: named.name,
    urlOf: (event) => pages.get(event.id) ?? null,
    // A series' dates outside the feed's category or venue are left out too, not only its non-public ones.
    includes: feedIncludes(store, named.scope),
  });
}

const matchesTag = (header: string, etag: string) =>
  header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);

/**
 * The subscribable feeds, on the public side of the server (loopback only, as everything it serves). Anything
 * wrong — unknown or revoked secret, unknown category or venue — is the same plain 404: the answer tells a
 * guesser nothing.
 */
export function feedRoutes(
  store: CalendarStore,
  secret: FeedSecret | undefined,
  clock: () => Date,
): Koa.Middleware {
  const cache = new FeedCache(store);
  return async (ctx, next) => {
    const match = FEED_PATH.exec(ctx.path);
    if (!match) return void (await next());
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Method not allowed: calendar feeds are read with GET.';
      return;
    }
    const [, given, calendar, kind, encodedSlug] = match;
    let slug = '';
    try {
      slug = encodedSlug ? decodeURIComponent(encodedSlug) : '';
    } catch {
      /* a malformed escape names nothing: 404 below */
    }
    const found = secret?.matches(given!)
      ? await store.readSettled(() => {
          const named = scopeOf(store, calendar ? 'calendar' : (kind as 'category' | 'venue'), slug);
          if (!named) return null;
          const since = feedWindowStartUtc(store.settings, clock());
          return cache.get(ctx.path, since, (pages) => {
            const events = feedEvents(store, named.scope, since);
            return { body: renderFeed(store, events, named, pages) };
          });
        })
      : null;
    if (!found) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body =
        'No calendar feed at this address: it was revoked or replaced. Copy the current address from Calendar Desk (Settings, Calendar feeds).';
      return;
    }
    ctx.set('ETag', found.etag);
    // Clients may keep it, but must ask again (cheaply, with If-None-Match) before using it.
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (matchesTag(ctx.get('If-None-Match'), found.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.set(
      'Content-Disposition',
      `inline; filename="${calendar ? 'calendar' : `${kind}-${slug.replace(/[^\w-]/g, '')}`}.ics"`,
    );
    ctx.body = found.body;
  };
}

/** The address the request reached (loopback: the host guard let nothing else in). */
const originOf = (request: ApiRequest<Record<string, never>>) =>
  `${request.ctx.protocol}://${request.ctx.host}`;

const NO_SECRET_STORE = 'Calendar feeds are not available on this server.';

/**
 * `GET calendar-desk/v1/feeds` (the addresses), `POST …/feeds/regenerate` (new addresses: the old ones stop
 * answering) and `POST …/feeds/revoke` (no feed answers until regenerated). Administrators only: the
 * addresses carry the secret.
 */
export function feedAdminRoutes(
  secret: FeedSecret | undefined,
  addressNotice: () => string | null = () => null,
): RouteDef[] {
  const notice = () => [addressNotice(), secret?.notice].filter(Boolean).join(' ') || null;
  const present = (request: ApiRequest<Record<string, never>>, state: FeedState | undefined = secret) =>
    feedsOverview(request.store, state, originOf(request), notice());
  const feeds = {
    description: 'Whether the feeds answer, and their addresses (whole calendar, categories, venues)',
  };
  const action = (
    path: string,
    summary: string,
    act: (feedSecret: FeedSecret) => Promise<FeedState>,
  ): RouteDef => ({
    pattern: `/feeds/${path}`,
    path: `/feeds/${path}`,
    docPath: `/feeds/${path}`,
    endpoints: [
      endpoint({
        methods: ['POST'],
        args: {},
        permission: administrators,
        handle: async (request) => {
          if (!secret) throw new ApiError(501, 'feeds_unavailable', NO_SECRET_STORE);
          // The state this change wrote, not whatever a change queued after it has made of it meanwhile.
          return { body: present(request, await act(secret)) };
        },
        doc: { summary, responses: { '200': feeds } },
      }),
    ],
  });
  return [
    {
      pattern: '/feeds',
      path: '/feeds',
      docPath: '/feeds',
      endpoints: [
        endpoint({
          methods: ['GET'],
          args: {},
          permission: administrators,
          handle: (request) => ({ body: present(request) }),
          doc: { summary: 'The calendar feeds and their addresses', responses: { '200': feeds } },
        }),
      ],
    },
    action('regenerate', 'Give the feeds new addresses (the old ones stop answering)', (feedSecret) =>
      feedSecret.regenerate(),
    ),
    action('revoke', 'Turn the feeds off (every address answers 404 until regenerated)', (feedSecret) =>
      feedSecret.revoke(),
    ),
  ];
}
