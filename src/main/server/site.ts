import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type Koa from 'koa';
import Router, { type RouterMiddleware } from '@koa/router';
import type { CalendarStore } from '../store/store';
import type { StoredEvent, StoredOrganizer, StoredTerm, StoredVenue } from '../store/schema';
import { categoryDescendants, categoryPath, findTerm } from '../core/terms';
import { escapeHtml, htmlToText, sanitizeRichText } from '../core/html';
import { buildLinks } from './links';
import { MEDIA_FILE_NAME, MEDIA_FOLDER } from '../core/media';
import { RENDERER_HEADERS, rendererCacheControl } from './rendererHeaders';
import { lazyMiddleware } from './middleware/lazy';

/** A public page: escaped, unframeable, scriptless. */
function page(ctx: Koa.Context, title: string, body: string) {
  ctx.type = 'text/html; charset=utf-8';
  // No page of another site may frame ours (clickjacking): `default-src` does not cover `frame-ancestors`;
  // X-Frame-Options says the same to browsers without it.
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; frame-ancestors 'none'",
  );
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1f2933}
dt{font-weight:600}dd{margin:0 0 .5rem}</style></head><body>${body}</body></html>`;
}

/** Plain-text fields may hold entities (as WordPress titles do): shown as the text they stand for. */
const text = (value: string) => escapeHtml(htmlToText(value));
const row = (label: string, value: string) =>
  value ? `<dt>${escapeHtml(label)}</dt><dd>${text(value)}</dd>` : '';
const published = <T extends { status: string }>(record: T | undefined) =>
  record && record.status === 'publish' ? record : undefined;

/** A term's page: its name and description, and its published events (of its subcategories too) by date. */
function termPage(store: CalendarStore, term: StoredTerm): [string, string] {
  const ids = new Set([
    term.id,
    ...(term.taxonomy === 'category' ? categoryDescendants(store, term.id) : []),
  ]);
  // An event in a category and one of its subcategories is listed once.
  const eventIds = new Set([...ids].flatMap((id) => [...(store.eventIndex.byTerm.get(id) ?? [])]));
  const events = [...eventIds]
    .map((id) => store.events.get(id)!)
    .filter((event) => event.status === 'publish' && !event.password && !event.hideFromListings)
    .sort((a, b) => (a.startLocal < b.startLocal ? -1 : a.startLocal > b.startLocal ? 1 : a.id - b.id))
    .slice(0, 200);
  const items = events
    .map(
      (event) =>
        `<li><a href="/event/${encodeURIComponent(event.slug)}/">${text(event.title)}</a> ${escapeHtml(event.startLocal)}</li>`,
    )
    .join('');
  return [
    htmlToText(term.name),
    `<h1>${text(term.name)}</h1>${term.description ? `<p>${text(term.description)}</p>` : ''}<ul>${items}</ul>`,
  ];
}

// Pictures uploaded from the desktop (CONTRACT §2): only names the store gives match, so no other file
// of the data folder can be asked for; served as inert images.
const mediaFile =
  (store: CalendarStore): RouterMiddleware =>
  async (ctx, next) => {
    const fileName = ctx.params.file;
    if (!MEDIA_FILE_NAME.test(fileName!)) return void (await next());
    const stats = await stat(join(store.dataDir, MEDIA_FOLDER, fileName!)).catch(() => null);
    if (!stats?.isFile()) return void (await next());
    ctx.type = extname(fileName!);
    ctx.length = stats.size;
    ctx.set('Content-Security-Policy', "default-src 'none'");
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.body = createReadStream(join(store.dataDir, MEDIA_FOLDER, fileName!));
  };

// Unknown pages: a plain 404 that points people to the app and the API.
const notFound: Koa.Middleware = async (ctx, next) => {
  await next();
  if (ctx.status === 404 && ctx.body === undefined) {
    const links = buildLinks(`${ctx.protocol}://${ctx.host}`, null);
    page(
      ctx,
      'Not found',
      `<h1>Not found</h1><p>Nothing public lives here. The API root is <code>${escapeHtml(links.apiRoot)}</code>.</p>`,
    );
    ctx.status = 404;
  }
};
// Every page of a WordPress site names its REST root, so a WordPress client discovers the API from the
// site's address (`WPAPI.discover('http://127.0.0.1:8787/')`), as it does from `/wp-json/`.
const apiDiscovery: Koa.Middleware = async (ctx, next) => {
  const { apiRoot } = buildLinks(`${ctx.protocol}://${ctx.host}`, null);
  ctx.set('Link', `<${apiRoot}>; rel="https://api.w.org/"`);
  await next();
};

/**
 * The public side of the site: the record pages that `url` points to (CONTRACT §2) and the built renderer
 * at `/`. Pages show published records only, escape every plain-text field and re-sanitize stored HTML.
 */
export function siteRoutes(store: CalendarStore, rendererDir?: string): Koa.Middleware[] {
  const router = new Router({ sensitive: false, strict: false });

  /**
   * A record page, answered (found or not) once what it shows is on disk, as API reads are (see
   * CalendarStore.readSettled). `render` gives the title and body, or nothing (404).
   */
  const recordPage =
    (render: (slug: string) => [title: string, body: string] | undefined): RouterMiddleware =>
    async (ctx, next) => {
      const built = await store.readSettled(() => render(ctx.params.slug!));
      if (!built) return void (await next());
      page(ctx, ...built);
    };

  router.get(
    '/event/:slug',
    recordPage((slug) => {
      const event = published<StoredEvent>(store.eventBySlug(slug));
      if (!event || event.password) return undefined;
      const venue = event.venueId ? published(store.venues.get(event.venueId)) : undefined;
      return [
        htmlToText(event.title),
        `<h1>${text(event.title)}</h1><dl>${row('Starts', `${event.startLocal} (${event.timezone})`)}${row(
          'Ends',
          event.endLocal,
        )}${row('Venue', venue?.name ?? '')}</dl>${sanitizeRichText(event.description)}`,
      ];
    }),
  );
  router.get(
    '/venue/:slug',
    recordPage((slug) => {
      const venue = published<StoredVenue>(store.venues.getByKey(slug.toLowerCase()));
      if (!venue || venue.password) return undefined;
      return [
        htmlToText(venue.name),
        `<h1>${text(venue.name)}</h1><dl>${row('Address', venue.address)}${row('City', venue.city)}${row(
          'Country',
          venue.country,
        )}${row('Phone', venue.phone)}${row('Website', venue.website)}</dl>${sanitizeRichText(venue.description)}`,
      ];
    }),
  );
  // A category's address names its ancestors (`/events/category/music/jazz/`, as WordPress'); another path
  // ending in its slug is sent there, as WordPress' canonical redirect does.
  router.get('/events/category/{*path}', async (ctx, next) => {
    const asked = ([] as string[])
      .concat(ctx.params.path ?? [])
      .join('/')
      .split('/')
      .filter(Boolean);
    const built = await store.readSettled(() => {
      const slug = asked.at(-1)?.toLowerCase();
      const term = slug ? findTerm(store, 'category', slug) : undefined;
      if (!term || term.slug !== slug) return undefined;
      const path = categoryPath(store, term).map((category) => category.slug);
      return { path, page: termPage(store, term) };
    });
    if (!built) return void (await next());
    if (built.path.join('/') !== asked.join('/').toLowerCase()) {
      ctx.status = 301;
      ctx.redirect(`/events/category/${built.path.map(encodeURIComponent).join('/')}/`);
      return;
    }
    page(ctx, ...built.page);
  });
  router.get(
    '/tag/:slug',
    recordPage((slug) => {
      const term = findTerm(store, 'tag', slug.toLowerCase());
      return term && term.slug === slug.toLowerCase() ? termPage(store, term) : undefined;
    }),
  );
  router.get('/media/:file', mediaFile(store));
  router.get(
    '/organizer/:slug',
    recordPage((slug) => {
      const organizer = published<StoredOrganizer>(store.organizers.getByKey(slug.toLowerCase()));
      if (!organizer || organizer.password) return undefined;
      return [
        htmlToText(organizer.name),
        `<h1>${text(organizer.name)}</h1><dl>${row('Phone', organizer.phone)}${row('E-mail', organizer.email)}${row(
          'Website',
          organizer.website,
        )}</dl>${sanitizeRichText(organizer.description)}`,
      ];
    }),
  );
  const middlewares: Koa.Middleware[] = [apiDiscovery, notFound, router.routes() as Koa.Middleware];
  if (rendererDir) {
    // Only what koa-static actually served gets the renderer's headers; a miss falls through to the 404 page.
    const rendererHeaders: Koa.Middleware = async (ctx, next) => {
      await next();
      if (ctx.body === undefined || ctx.body === null) return;
      ctx.set(RENDERER_HEADERS);
      ctx.set('Cache-Control', rendererCacheControl(ctx.path));
      // The build ships .br/.gz twins that koa-static picks by Accept-Encoding: caches must key on it.
      ctx.vary('Accept-Encoding');
    };
    const files = lazyMiddleware(async () => {
      const { default: serve } = await import('koa-static');
      return serve(rendererDir, { index: 'index.html', hidden: false });
    });
    middlewares.push(rendererHeaders, files);
  }
  return middlewares;
}
