import type { ApiConnection } from '../../../shared/bridge';
import { ADMIN_NAMESPACE, NAMESPACE } from '../../../shared/enums';
import {
  apiRoutes,
  routePath,
  type ApiRouteKey,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
} from '../../../shared/api/routes';

/** A query string value: arrays are sent as `key[]=a&key[]=b`, as the API (and WordPress) expects. */
export type QueryValue = string | number | boolean | undefined | null | ReadonlyArray<string | number>;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Sends `ml_language` (the language a new record is created in). */
  language?: string;
  /** A file sent as the raw body (a picture upload) instead of a JSON `body`. */
  file?: File;
}

/** What {@link ApiClient.call} takes beside the route's key: only the parts the route has. */
export type CallArgs<K extends ApiRouteKey> = (keyof RouteParams<K> extends never
  ? { params?: undefined }
  : { params: RouteParams<K> }) &
  (RouteBody<K> extends never ? { body?: undefined } : { body: RouteBody<K> }) &
  (RouteQuery<K> extends never
    ? { query?: undefined }
    : { query?: RouteQuery<K> & Record<string, QueryValue> }) & {
    /** Sends `ml_language` (the language a new record is created in). */
    language?: string;
  };

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

/** What the API answers on failure (WordPress' shape). */
interface ErrorBody {
  code?: unknown;
  message?: unknown;
  data?: { status?: unknown; params?: unknown } | null;
}

/**
 * A failed API call. `fields` maps request fields to what is wrong with them, so forms can show each
 * message next to its input (`rest_invalid_param` gives messages; `rest_missing_callback_param` names).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    /** The error's `data` (beyond `params`): e.g. which form field a remote's refusal is about. */
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static fromBody(status: number, body: unknown): ApiError {
    const error = (body ?? {}) as ErrorBody;
    const code = typeof error.code === 'string' ? error.code : `http_${status}`;
    const message =
      typeof error.message === 'string' && error.message
        ? error.message
        : `The local API answered with HTTP ${status}.`;
    const params = error.data?.params;
    const fields: Record<string, string> = {};
    if (Array.isArray(params)) {
      for (const name of params) if (typeof name === 'string') fields[name] = 'required';
    } else if (params && typeof params === 'object') {
      for (const [name, text] of Object.entries(params)) fields[name] = String(text);
    }
    const data = error.data && typeof error.data === 'object' ? (error.data as Record<string, unknown>) : {};
    return new ApiError(status, code, message, fields, data);
  }
}

/** The network failed before any answer (server stopped, port changed). */
export const NETWORK_ERROR = 'network_error';

export function encodeQuery(query: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      for (const item of value) search.append(`${key}[]`, String(item));
    } else {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The renderer's only way to the data: HTTP to the local REST API, with the bearer token of the
 * connection (desktop) or the session cookie (browser). No IPC shortcuts, so what the UI can do any local tool can do too.
 */
export class ApiClient {
  constructor(
    readonly connection: ApiConnection,
    private readonly fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  url(path: string, query?: Record<string, QueryValue>, namespace = NAMESPACE): string {
    return `${this.connection.apiRoot}${namespace}/${path}${encodeQuery(query)}`;
  }

  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options: RequestOptions & { namespace?: string } = {},
  ): Promise<ApiResponse<T>> {
    const query = { ...options.query, ...(options.language ? { ml_language: options.language } : {}) };
    const headers: Record<string, string> = { Accept: 'application/json', ...this.authorization() };
    let body: BodyInit | undefined;
    if (options.file) {
      headers['Content-Type'] = options.file.type || 'application/octet-stream';
      headers['Content-Disposition'] =
        `attachment; filename*=UTF-8''${encodeURIComponent(options.file.name)}`;
      body = options.file;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let response: Response;
    try {
      response = await this.fetchImpl(this.url(path, query, options.namespace), { method, headers, body });
    } catch {
      throw new ApiError(
        0,
        NETWORK_ERROR,
        'The local API did not answer. Is Calendar Desk still running? Restart it and reload this page.',
      );
    }
    const text = await response.text();
    let data: unknown = undefined;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      throw new ApiError(
        response.status,
        'invalid_response',
        'The local API sent an answer that is not JSON.',
      );
    }
    if (!response.ok) throw ApiError.fromBody(response.status, data);
    return { data: data as T, headers: response.headers };
  }

  /**
   * A file the API answers (an export): its bytes and the name its Content-Disposition gives. A failure
   * is the API's JSON error, thrown as an ApiError like any other call's.
   */
  async download(
    path: string,
    query: Record<string, QueryValue>,
    namespace: string,
  ): Promise<{ blob: Blob; fileName: string }> {
    let response: Response;
    try {
      response = await this.fetchImpl(this.url(path, query, namespace), {
        headers: this.authorization(),
      });
    } catch {
      throw new ApiError(
        0,
        NETWORK_ERROR,
        'The local API did not answer. Is Calendar Desk still running? Restart it and reload this page.',
      );
    }
    if (!response.ok) {
      const text = await response.text();
      let body: unknown = undefined;
      try {
        body = JSON.parse(text);
      } catch {
        /* not the API's JSON: the status alone says what failed */
      }
      throw ApiError.fromBody(response.status, body);
    }
    const disposition = response.headers.get('Content-Disposition') ?? '';
    const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? path;
    return { blob: await response.blob(), fileName };
  }

  /** The desktop's bearer token; a browser's requests carry the session cookie instead (same origin). */
  private authorization(): Record<string, string> {
    // X-Requested-With: no other origin's page can send it (it needs a CORS preflight the API never grants), so
    // the API knows a cookie-signed write comes from this page even where the browser sends no Origin.
    return this.connection.token
      ? { Authorization: `Bearer ${this.connection.token}` }
      : { 'X-Requested-With': 'calendar-desk' };
  }

  /**
   * Calls a route of the shared map (src/shared/api/routes.ts): its path parameters filled in, its body and
   * query of the route's types, its answer typed as the route's response schema says.
   */
  call<K extends ApiRouteKey>(
    key: K,
    ...[args]: keyof RouteParams<K> extends never
      ? RouteBody<K> extends never
        ? [args?: CallArgs<K>]
        : [args: CallArgs<K>]
      : [args: CallArgs<K>]
  ): Promise<ApiResponse<RouteResponse<K>>> {
    const spec = apiRoutes[key];
    const { params, body, query, language } = (args ?? {}) as {
      params?: Record<string, string | number>;
      body?: unknown;
      query?: Record<string, QueryValue>;
      language?: string;
    };
    return this.request<RouteResponse<K>>(spec.method, routePath(spec.path, params), {
      namespace: spec.namespace,
      body,
      query,
      language,
    });
  }

  get<T>(path: string, options?: RequestOptions & { namespace?: string }) {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, body: unknown, options?: RequestOptions & { namespace?: string }) {
    return this.request<T>('POST', path, { ...options, body });
  }

  delete<T>(path: string, options?: RequestOptions & { namespace?: string }) {
    return this.request<T>('DELETE', path, options);
  }

  /** Uploads a picture from the user's computer (its raw bytes): `{id, url}` of the new media item. */
  async uploadPicture(file: File): Promise<{ id: number; url: string; extension: string }> {
    const { data } = await this.request<{ id: number; url: string; extension: string }>('POST', 'media', {
      namespace: ADMIN_NAMESPACE,
      file,
    });
    return data;
  }
}
