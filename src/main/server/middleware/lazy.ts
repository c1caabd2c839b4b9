import type Koa from 'koa';

/** A middleware whose modules are loaded on first use, or earlier with `preload` (when the server is idle). */
export type LazyMiddleware = Koa.Middleware & { preload(): Promise<void> };

/**
 * A middleware made by `load` on its first request, not at start: for the parts no read of the calendar needs
 * (the body parser, the renderer's static files), whose modules take tens of milliseconds to load.
 */
export function lazyMiddleware(load: () => Promise<Koa.Middleware>): LazyMiddleware {
  let middleware: Promise<Koa.Middleware> | undefined;
  const loaded = () => (middleware ??= load());
  const lazy: Koa.Middleware = async (ctx, next) => {
    await (
      await loaded()
    )(ctx, next);
  };
  return Object.assign(lazy, { preload: async () => void (await loaded()) });
}
