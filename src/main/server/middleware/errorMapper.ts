import type Koa from 'koa';
import { ApiError, storageUnavailable } from '../errors';
import { StorageUnavailableError } from '../../store/store';
import { PartlySavedError } from '../../store/storageRefusal';

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

const TOO_LARGE = () =>
  new ApiError(413, 'rest_request_too_large', 'The request body is larger than the 1 MiB this API accepts.');

/** Errors of the body parser (raw-body / co-body) carry an HTTP status and often a `type`. */
interface HttpishError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  body?: unknown;
  message?: string;
  stack?: string;
}

function toApiError(thrown: unknown, log: (message: string) => void): ApiError {
  if (thrown instanceof ApiError) return thrown;
  if (thrown instanceof PartlySavedError)
    return new ApiError(503, 'rest_storage_unavailable', thrown.message);
  if (thrown instanceof StorageUnavailableError) return storageUnavailable(thrown.message);
  const error = (thrown ?? {}) as HttpishError;
  const status = error.status ?? error.statusCode;
  if (status === 413) return TOO_LARGE();
  if (status === 415) {
    return new ApiError(
      415,
      'rest_unsupported_media_type',
      'Send the body as application/json or application/x-www-form-urlencoded, in UTF-8.',
    );
  }
  if (status === 400) {
    // co-body marks a body JSON.parse rejected with status 400 and the text it read (no `type`).
    const jsonProblem =
      thrown instanceof SyntaxError || error.type === 'entity.parse.failed' || typeof error.body === 'string';
    if (jsonProblem) return new ApiError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
    if (error.type !== undefined || error.expose) {
      return new ApiError(400, 'rest_invalid_body', 'The request body could not be read completely.');
    }
  }
  // Other client errors that http-errors marks safe to show (e.g. a malformed path).
  if (status !== undefined && status >= 400 && status < 500 && error.expose) {
    return new ApiError(status, 'rest_invalid_request', error.message || 'The request could not be served.');
  }
  log(`calendar-desk: unexpected error: ${error.stack ?? String(thrown)}`);
  return new ApiError(
    500,
    'rest_internal_error',
    'Something went wrong on the server; the error was logged.',
  );
}
