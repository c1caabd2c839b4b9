import type Koa from 'koa';
import type { ApiState } from '../state';
import { ApiError } from '../errors';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export interface GuardOptions {
  /** Extra host names allowed in `Host` (a configured site host), without port. */
  extraHosts?: string[];
}

/** The address the request arrived on, as it appears in a `Host` header (`127.0.0.2`, `[::1]`). */
function localName(ctx: Koa.Context): string | undefined {
  const address = ctx.req.socket.localAddress?.replace(/^::ffff:/i, '');
  if (!address) return undefined;
  return address.includes(':') ? `[${address}]` : address;
}

/** The `host:port` values this server answers to, for the address and port the request arrived on. */
function allowedHosts(ctx: Koa.Context, options: GuardOptions): Set<string> {
  const port = ctx.req.socket.localPort;
  const local = localName(ctx);
  const names = [...LOOPBACK_NAMES, ...(local ? [local] : []), ...(options.extraHosts ?? [])];
  return new Set(
    names.flatMap((name) => [`${name}:${port}`.toLowerCase(), ...(port === 80 ? [name.toLowerCase()] : [])]),
  );
}

/**
 * DNS-rebinding and cross-site protection (CONTRACT §6): a `Host` that is not our own loopback name and
 * port is refused, and so is any write carrying a foreign `Origin`. No CORS header is ever sent, so
 * browsers keep other sites from reading responses.
 */
export function hostAndOriginGuard(options: GuardOptions = {}): Koa.Middleware {
  // Per local address and port (a server has one or two): built once instead of on every request.
  const allowedByLocal = new Map<string, Set<string>>();
  return async (ctx, next) => {
    const local = `${ctx.req.socket.localAddress} ${ctx.req.socket.localPort}`;
    let allowed = allowedByLocal.get(local);
    if (!allowed) {
      if (allowedByLocal.size >= 16) allowedByLocal.clear();
      allowed = allowedHosts(ctx, options);
      allowedByLocal.set(local, allowed);
    }
    const host = (ctx.get('Host') || '').trim().toLowerCase();
    if (!allowed.has(host)) {
      throw new ApiError(
        403,
        'rest_forbidden_host',
        host
          ? `Requests for host "${host}" are refused: this server only answers to its own loopback address.`
          : 'Requests without a Host header are refused: this server only answers to its own loopback address.',
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

/** Hardening headers for every response of the server, API or not, errors included. */
export function baseHeaders(): Koa.Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  };
}

/** Headers WordPress sends with every REST response (REFERENCE §1.4), and a few of our own hardening ones. */
export function apiHeaders(): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const { apiRoot } = ctx.state.links;
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
