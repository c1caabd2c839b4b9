import type Koa from 'koa';
import { ApiError, storageUnavailable } from '../errors';
import { StorageUnavailableError } from '../../store/store';

/** Turns whatever a request threw into WordPress' error shape; unexpected errors are logged, not leaked. */
export function errorMapper(log: (message: string) => void = console.error): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const error = toApiError(thrown, log);
      ctx.status = error.status;
      ctx.body = error.toBody();
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
    }
  };
}

function toApiError(thrown: unknown, log: (message: string) => void): ApiError {
  if (thrown instanceof ApiError) return thrown;
  if (thrown instanceof StorageUnavailableError) return storageUnavailable(thrown.message);
  const error = thrown as { status?: number; type?: string; message?: string; stack?: string };
  // Errors of the body parser (raw-body / co-body) carry an HTTP status and a type.
  if (error.status === 413) {
    return new ApiError(
      413,
      'rest_request_too_large',
      'The request body is larger than the 1 MiB this API accepts.',
    );
  }
  if (error.status === 415) {
    return new ApiError(
      415,
      'rest_unsupported_media_type',
      'Send the body as application/json or application/x-www-form-urlencoded.',
    );
  }
  if (error.status === 400 && error.type !== undefined) {
    const jsonProblem = error.type === 'entity.parse.failed' || /json/i.test(error.message ?? '');
    if (jsonProblem) return new ApiError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
    return new ApiError(400, 'rest_invalid_body', `The request body could not be read: ${error.message}`);
  }
  log(`calendar-desk: unexpected error: ${error.stack ?? String(thrown)}`);
  return new ApiError(
    500,
    'rest_internal_error',
    'Something went wrong on the server; the error was logged.',
  );
}
