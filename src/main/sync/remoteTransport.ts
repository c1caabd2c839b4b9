/**
 * The HTTP side of talking to a remote: one request with credentials, a timeout and retries with backoff
 * (honouring Retry-After), and the classification of what went wrong into a {@link RemoteError} whose message
 * says what to do. It knows nothing of events or WordPress routes: {@link RemoteClient} builds the calls.
 */
import { z } from 'zod';
import { RemoteError } from './remoteErrors';
import { BodyReadError, readBoundedBody, REMOTE_ANSWER_MAX_BYTES, sizeText } from './boundedBody';
import { fetchKeepingCredentials } from './remoteRedirects';
import { htmlToText } from '../core/html';
import type { RemoteAuth } from '../../shared/schemas/sync';

/** How requests are sent: credentials, and how long and how often to try. */
export interface TransportOptions {
  auth: RemoteAuth;
  /** Tries per request for network errors, 429 and 5xx (default 5). */
  attempts?: number;
  /** First backoff step in ms (default 500); doubles each try, with jitter. */
  backoffMs?: number;
  /** Longest wait honoured from a Retry-After header (default 60 s). */
  maxRetryAfterMs?: number;
  /** How long one answer may take in all, its body included (default 30 s). */
  timeoutMs?: number;
  /** Stops every request at once, a retry's wait included (REMOTE_CANCELLED); not retried. */
  signal?: AbortSignal;
  sleep?: (ms: number) => Promise<void>;
  /** Told before each retry (progress output). */
  onRetry?: (info: { attempt: number; waitMs: number; reason: string }) => void;
}

/** An HTTP answer with its body parsed as JSON (undefined when empty, or an error page of a retryable status). */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** WordPress' error body: `{code, message, data}`. */
export const errorBody = z.looseObject({
  code: z.string(),
  message: z.string().optional(),
  data: z.unknown().optional(),
});

/** `Retry-After` in ms (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Exponential backoff with full jitter around the step: base·2^attempt·[0.5, 1.5). */
export function backoffDelay(attempt: number, baseMs: number, random = Math.random): number {
  return Math.round(baseMs * 2 ** attempt * (0.5 + random()));
}

const isRetryableStatus = (status: number) => status === 429 || status >= 500;
/**
 * The server in front of the site, not the site, answered: a gateway error (502/503/504) or a 5xx without a
 * JSON body. A 500 with WordPress' JSON error is the site's own answer about one record.
 */
const isSiteDown = (answer: Answer) =>
  [502, 503, 504].includes(answer.status) || (answer.status >= 500 && answer.body === undefined);

/**
 * What a failed connection means, in words (never a bare ENOTFOUND), and whether trying again soon can help.
 * Node's fetch puts the system error under `cause` (its `code`, or the TLS library's for certificates).
 */
export function networkFailure(error: unknown): { code: string; words: string; permanent: boolean } {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? ((error as Error).name === 'TimeoutError' ? 'TIMEOUT' : 'NETWORK');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return {
      code,
      words:
        'no such address was found. Check the spelling of the address, and that this computer is online.',
      permanent: code === 'ENOTFOUND',
    };
  }
  if (code === 'ECONNREFUSED') {
    return {
      code,
      words: 'nothing answers at that address (the connection was refused). Check the address and the port.',
      permanent: true,
    };
  }
  if (code === 'TIMEOUT' || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { code, words: 'the site did not answer in time. Try again later.', permanent: false };
  }
  if (/CERT|SSL|TLS/i.test(code)) {
    return {
      code,
      words:
        'its security certificate is not valid, so the connection was not trusted. Check the address (http:// or https://).',
      permanent: true,
    };
  }
  return {
    code,
    words: `the connection failed (${cause?.message ?? (error as Error).message}). Check the address and your connection.`,
    permanent: false,
  };
}

/** Sends requests to one remote: paths are relative to `base` (the namespace's root) unless absolute. */
export class RemoteTransport {
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly base: string,
    private readonly options: TransportOptions,
  ) {
    this.attempts = options.attempts ?? 5;
    this.backoffMs = options.backoffMs ?? 500;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  private authHeader(): Record<string, string> {
    const auth = this.options.auth;
    if (!auth) return {};
    if ('token' in auth) return { Authorization: `Bearer ${auth.token}` };
    return { Authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` };
  }

  /** The error of a request stopped by {@link TransportOptions.signal}. */
  private cancelled(url: string): RemoteError {
    return new RemoteError('REMOTE_CANCELLED', `The request to ${url} was cancelled.`);
  }

  /**
   * One HTTP exchange, no retries. Network trouble is REMOTE_UNREACHABLE; a non-JSON body REMOTE_NOT_JSON; an
   * answer over {@link REMOTE_ANSWER_MAX_BYTES} REMOTE_TOO_LARGE. One deadline covers the whole exchange, the
   * body's last byte included.
   */
  private async once(
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
    anonymous = false,
  ): Promise<Answer> {
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const cancel = this.options.signal;
    const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
    let response: Response;
    try {
      // Redirects are followed by hand: the credentials go to the remote's own origin only.
      const request = {
        method,
        headers: {
          Accept: 'application/json',
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...headers,
        },
        // A Buffer is a file sent as is (a picture upload, its type in `headers`); anything else is JSON.
        body: Buffer.isBuffer(body)
          ? new Uint8Array(body)
          : body !== undefined
            ? JSON.stringify(body)
            : undefined,
        signal,
      };
      const credentials = anonymous ? {} : this.authHeader();
      response = await fetchKeepingCredentials(url, request, credentials, new URL(this.base).origin);
    } catch (error) {
      if (cancel?.aborted) throw this.cancelled(url);
      const failure = networkFailure(error);
      throw new RemoteError(
        'REMOTE_UNREACHABLE',
        `Could not reach ${new URL(url).host}: ${failure.words}`,
        null,
        null,
        { network: failure.code, permanent: failure.permanent },
      );
    }
    let text: string;
    try {
      text = (await readBoundedBody(response, { maxBytes: REMOTE_ANSWER_MAX_BYTES, signal })).toString(
        'utf8',
      );
    } catch (error) {
      if (cancel?.aborted) throw this.cancelled(url);
      // Not worth a retry: the same request gets the same answer, and reading it again costs as much.
      if (error instanceof BodyReadError && error.reason === 'too_large') {
        throw new RemoteError(
          'REMOTE_TOO_LARGE',
          `${url} answered HTTP ${response.status} with more than ${sizeText(REMOTE_ANSWER_MAX_BYTES)}, more than ` +
            'Calendar Desk reads in one answer, so it was not read. Check the address ' +
            "(it ends in /wp-json/); if it is right, tell the site's administrator that its API sends answers that large.",
          response.status,
        );
      }
      if (deadline.aborted) {
        throw new RemoteError(
          'REMOTE_UNREACHABLE',
          `${url} did not finish its answer within ${Math.round(timeoutMs / 1000)} seconds. The site may be busy: try again later.`,
          null,
          null,
          { network: 'TIMEOUT', permanent: false },
        );
      }
      throw new RemoteError('REMOTE_UNREACHABLE', `The connection to ${url} broke while reading the answer.`);
    }
    if (text.trim() === '') return { status: response.status, headers: response.headers, body: undefined };
    try {
      return { status: response.status, headers: response.headers, body: JSON.parse(text) };
    } catch {
      // A busy or broken server's error page (nginx's 502 while php-fpm is down): transient, not a wrong address.
      if (isRetryableStatus(response.status)) {
        return { status: response.status, headers: response.headers, body: undefined };
      }
      const html = /^\s*</.test(text);
      throw new RemoteError(
        'REMOTE_NOT_JSON',
        `${url} answered HTTP ${response.status} with ${html ? 'an HTML page' : 'something'} instead of JSON: ` +
          'this is not a REST API root (use the address ending in /wp-json/, and check that pretty permalinks are on).',
        response.status,
      );
    }
  }

  /**
   * A request retried on network errors, 429 and 5xx (honouring Retry-After). Only for requests that are safe
   * to repeat; a create passes `retry: false` and handles an unknown outcome itself.
   */
  async request(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; retry?: boolean; anonymous?: boolean } = {},
  ): Promise<Answer> {
    const url = path.startsWith('http') ? path : `${this.base}${path}`;
    const retry = options.retry ?? true;
    for (let attempt = 0; ; attempt++) {
      if (this.options.signal?.aborted) throw this.cancelled(url);
      let answer: Answer | null = null;
      let failure: RemoteError | null = null;
      try {
        answer = await this.once(method, url, options.body, options.headers, options.anonymous);
      } catch (error) {
        if (!(error instanceof RemoteError) || error.code !== 'REMOTE_UNREACHABLE') throw error;
        failure = error;
      }
      // An address that does not exist or refuses connections will not do better in a few seconds: say so now.
      if (failure?.data.permanent === true) throw failure;
      const retryable = failure !== null || (answer !== null && isRetryableStatus(answer.status));
      if (!retryable) return answer!;
      if (!retry) {
        if (answer?.status === 429) {
          // Refused before doing anything: safe to try again even for a create.
        } else {
          throw new RemoteError(
            'REMOTE_UNKNOWN_OUTCOME',
            failure?.message ??
              `${url} answered HTTP ${answer!.status}: the request may or may not have been done.`,
            answer?.status ?? null,
          );
        }
      }
      if (attempt + 1 >= this.attempts) {
        if (failure) throw failure;
        if (isSiteDown(answer!)) {
          throw new RemoteError(
            'REMOTE_UNAVAILABLE',
            `The site is not answering: ${url} answered HTTP ${answer!.status}${answer!.body === undefined ? ' with an error page' : ''} ${this.attempts} times in a row (it is down or overloaded); run it again in a few minutes.`,
            answer!.status,
          );
        }
        throw this.errorOf(answer!, url);
      }
      const asked = answer ? retryAfterMs(answer.headers.get('retry-after')) : null;
      const waitMs =
        asked !== null
          ? Math.min(asked, this.options.maxRetryAfterMs ?? 60_000)
          : backoffDelay(attempt, this.backoffMs);
      this.options.onRetry?.({
        attempt: attempt + 1,
        waitMs,
        reason: failure ? failure.message : `HTTP ${answer!.status}`,
      });
      await this.wait(waitMs, url);
    }
  }

  /** A retry's wait, cut short by a cancel. */
  private async wait(ms: number, url: string): Promise<void> {
    const cancel = this.options.signal;
    if (!cancel) return this.sleep(ms);
    let onAbort = () => {};
    const cancelled = new Promise<void>((resolve) => {
      onAbort = () => resolve();
      cancel.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([this.sleep(ms), cancelled]);
    } finally {
      cancel.removeEventListener('abort', onAbort);
    }
    if (cancel.aborted) throw this.cancelled(url);
  }

  /** The error an unsuccessful answer stands for, with the remote's own code and message. */
  errorOf(answer: Answer, url: string): RemoteError {
    const parsed = errorBody.safeParse(answer.body);
    const remoteCode = parsed.success ? parsed.data.code : null;
    const data =
      parsed.success && parsed.data.data && typeof parsed.data.data === 'object'
        ? (parsed.data.data as Record<string, unknown>)
        : {};
    // WordPress names each invalid parameter and why under data.params.
    const params =
      data.params && typeof data.params === 'object'
        ? ` ${Object.values(data.params as Record<string, unknown>)
            .map(String)
            .join(' ')}`
        : '';
    // WordPress writes some messages as HTML (`<strong>Error:</strong> …`): people read them as text.
    const said =
      parsed.success && parsed.data.message
        ? htmlToText(`${parsed.data.message}${params}`)
        : `HTTP ${answer.status}`;
    if (answer.status === 401) {
      const auth = this.options.auth;
      const user = auth && 'user' in auth ? auth.user : null;
      const advice =
        remoteCode === 'invalid_username' && user
          ? `The site has no user "${user}": give the login name of a WordPress account (--user).`
          : remoteCode === 'incorrect_password' && user
            ? `Give an application password of "${user}" (on the site: Users → Profile → Application Passwords), not the password used to log in.`
            : 'Check the user name and application password (or the token).';
      return new RemoteError(
        'REMOTE_BAD_CREDENTIALS',
        `The remote refused the credentials (${said}). ${advice}`,
        401,
        remoteCode,
        data,
      );
    }
    return new RemoteError(
      'REMOTE_HTTP_ERROR',
      `${said} (HTTP ${answer.status} from ${url})`,
      answer.status,
      remoteCode,
      data,
    );
  }
}
