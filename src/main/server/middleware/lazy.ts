import type Koa from 'koa';

/**
 * A middleware made by `load` on its first request, not at start: for the parts no read of the calendar needs
 * (the body parser, the renderer's static files), whose modules take tens of milliseconds to load.
 */
export function lazyMiddleware(load: () => Promise<Koa.Middleware>): Koa.Middleware {
  let middleware: Promise<Koa.Middleware> | undefined;
  return async (ctx, next) => (await (middleware ??= load()))(ctx, next);
}
