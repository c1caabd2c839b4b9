import { describe, expect, it } from 'vitest';
import type Koa from 'koa';
import { lazyMiddleware } from '../../src/main/server/middleware/lazy';

describe('lazyMiddleware', () => {
  it('loads once, at the first request or earlier through preload, and every request then uses it', async () => {
    let loads = 0;
    const seen: string[] = [];
    const lazy = lazyMiddleware(async () => {
      loads++;
      return async (ctx, next) => {
        seen.push(ctx.path);
        await next();
      };
    });
    await lazy.preload();
    expect(loads).toBe(1);
    let nexts = 0;
    const next = async () => void nexts++;
    await lazy({ path: '/a' } as Koa.Context, next);
    await lazy({ path: '/b' } as Koa.Context, next);
    await lazy.preload();
    expect({ loads, seen, nexts }).toEqual({ loads: 1, seen: ['/a', '/b'], nexts: 2 });
  });

  it('a first request and a preload at the same time share one load', async () => {
    let loads = 0;
    const lazy = lazyMiddleware(async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return async (_ctx, next) => next();
    });
    await Promise.all([lazy.preload(), lazy({} as Koa.Context, async () => undefined)]);
    expect(loads).toBe(1);
  });
});
