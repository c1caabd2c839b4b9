import type Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { ApiError } from '../errors';

export const BODY_LIMIT = '1mb';

const ACCEPTED = ['application/json', 'application/x-www-form-urlencoded'];

function hasBody(ctx: Koa.Context): boolean {
  const length = ctx.get('Content-Length');
  return (length !== '' && length !== '0') || ctx.get('Transfer-Encoding') !== '';
}

const parser = bodyParser({
  enableTypes: ['json', 'form'],
  jsonLimit: BODY_LIMIT,
  formLimit: BODY_LIMIT,
  parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  jsonStrict: false,
  encoding: 'utf-8',
  onError: (error) => {
    throw error;
  },
});

/**
 * Parses a JSON or form body (WordPress accepts both) up to 1 MiB into `ctx.request.body`; anything else
 * with a body is 415. A body that declares more than the limit is refused before it is read. The dispatcher
 * calls it for every endpoint but a picture upload, which reads its raw body itself.
 */
export async function parseRequestBody(ctx: Koa.Context): Promise<void> {
  if (hasBody(ctx) && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) {
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
