import { WriteRefused } from '../core/writes';
import { WriteBudgetExceeded } from '../core/writeBudget';

/**
 * The one error type of the API: rendered as `{code, message, data: {status, ...}}` (WordPress' REST error
 * shape) by the error middleware.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody() {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
  }
}

export const NO_ROUTE = () =>
  new ApiError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

export const FORBIDDEN = (loggedIn: boolean) =>
  new ApiError(loggedIn ? 403 : 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');

export const missingParams = (names: string[]) =>
  new ApiError(400, 'rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, {
    params: names,
  });

export const invalidParams = (params: Record<string, string>) =>
  new ApiError(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, {
    params,
    details: [],
  });

/** Shorthand for a single invalid parameter with the generic WordPress message. */
export const invalidParam = (name: string, message = 'Invalid parameter.') =>
  invalidParams({ [name]: message });

export const storageUnavailable = (detail: string) =>
  new ApiError(
    503,
    'rest_storage_unavailable',
    `The change could not be saved (${detail}). Nothing was changed; check the disk and try again.`,
  );

/** A write core/ refused, answered as the contract says (core gives the status, code and data). */
export function refusedWrite(error: unknown): never {
  if (error instanceof WriteBudgetExceeded) {
    throw new ApiError(error.status, error.code, error.message, error.data, {
      'Retry-After': String(error.retryAfterSeconds),
    });
  }
  if (error instanceof WriteRefused) throw new ApiError(error.status, error.code, error.message, error.data);
  throw error;
}
