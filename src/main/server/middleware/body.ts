import type Koa from 'koa';
import { ApiError } from '../errors';
import { lazyMiddleware } from './lazy';

export const BODY_LIMIT = '1mb';

const ACCEPTED = ['application/json', 'application/x-www-form-urlencoded'];

function hasBody(ctx: Koa.Context): boolean {
  const length = ctx.get('Content-Length');
  return (length !== '' && length !== '0') || ctx.get('Transfer-Encoding') !== '';
}

/** The methods whose body is read; other requests (every read) never load the parser. */
const PARSED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

const parser = lazyMiddleware(async () => {
  const { bodyParser } = await import('@koa/bodyparser');
  return bodyParser({
    enableTypes: ['json', 'form'],
    jsonLimit: BODY_LIMIT,
    formLimit: BODY_LIMIT,
    parsedMethods: PARSED_METHODS,
    jsonStrict: false,
    encoding: 'utf-8',
    onError: (error) => {
      throw error;
    },
  });
});

/**
 * Parses a JSON or form body (WordPress accepts both) up to 1 MiB into `ctx.request.body`; anything else
 * with a body is 415. A body that declares more than the limit is refused before it is read. The dispatcher
 * calls it for every endpoint but a picture upload, which reads its raw body itself.
 */
export async function parseRequestBody(ctx: Koa.Context): Promise<void> {
  if (!PARSED_METHODS.includes(ctx.method)) return;
  if (hasBody(ctx)) {
    if (Number(ctx.get('Content-Length')) > 1024 * 1024) {
      throw new ApiError(
        413,
        'rest_request_too_large',
        'The request body is larger than the 1 MiB this API accepts.',
      );
    }
    if (!ctx.is(ACCEPTED)) {
      throw new ApiError(
        415,
        'rest_unsupported_media_type',
        `Content type "${ctx.get('Content-Type') || 'none'}" is not supported: send application/json or application/x-www-form-urlencoded.`,
      );
    }
  }
  await parser(ctx, async () => {});
}

/** Loads the body parser now (see `preloadWritePath`), so that the first write does not wait for it. */
export const preloadBodyParser = (): Promise<void> => parser.preload();
