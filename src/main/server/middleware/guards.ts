import type Koa from 'koa';
import { ApiError } from '../errors';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export interface GuardOptions {
  /** Extra host names allowed in `Host` (a configured site host), without port. */
  extraHosts?: string[];
}

/** The `host:port` values this server answers to, for the port the request arrived on. */
function allowedHosts(ctx: Koa.Context, options: GuardOptions): Set<string> {
  const port = ctx.req.socket.localPort;
  const names = [...LOOPBACK_NAMES, ...(options.extraHosts ?? [])];
  return new Set(names.flatMap((name) => [`${name}:${port}`.toLowerCase(), ...(port === 80 ? [name] : [])]));
}

/**
 * DNS-rebinding and cross-site protection (CONTRACT §6): a `Host` that is not our own loopback name and
 * port is refused, and so is any write carrying a foreign `Origin`.
 */
export function hostAndOriginGuard(options: GuardOptions = {}): Koa.Middleware {
  return async (ctx, next) => {
    const allowed = allowedHosts(ctx, options);
    const host = (ctx.get('Host') || '').toLowerCase();
    if (!allowed.has(host)) {
      throw new ApiError(
        403,
        'rest_forbidden_host',
        `Requests for host "${host}" are refused: this server only answers to its own loopback address.`,
      );
    }
    const origin = ctx.get('Origin');
    const isWrite = !['GET', 'HEAD', 'OPTIONS'].includes(ctx.method);
    if (origin && isWrite) {
      let originHost = '';
      try {
        const url = new URL(origin);
        originHost = url.protocol === 'http:' ? url.host.toLowerCase() : '';
      } catch {
        /* "null" or garbage: foreign */
      }
      if (!allowed.has(originHost)) {
        throw new ApiError(
          403,
          'rest_forbidden_origin',
          `Writes from the web origin "${origin}" are refused. Local tools should not send an Origin header.`,
        );
      }
    }
    await next();
  };
}

/** Headers WordPress sends with every REST response (REFERENCE §1.4), and a few of our own hardening ones. */
export function apiHeaders(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const apiRoot = (ctx.state as { links?: { apiRoot: string } }).links?.apiRoot;
      if (apiRoot)
        ctx.set('Link', appendLink(ctx.response.get('Link'), `<${apiRoot}>; rel="https://api.w.org/"`));
      ctx.set('X-Robots-Tag', 'noindex');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Access-Control-Expose-Headers', 'X-WP-Total, X-WP-TotalPages, Link, ETag');
      ctx.set('Cache-Control', 'no-store');
    }
  };
}

function appendLink(existing: string, link: string): string {
  return existing ? `${existing}, ${link}` : link;
}
