import { BodyReadError, readBoundedBody, REMOTE_ANSWER_MAX_BYTES, sizeText } from '../sync/boundedBody';
import { RemoteError } from '../sync/remoteErrors';
import { fetchKeepingCredentials } from '../sync/remoteRedirects';
import { backoffDelay, networkFailure, retryAfterMs, type TransportOptions } from '../sync/remoteTransport';

/**
 * The HTTP side of talking to a CalDAV server, with the guarantees of the other remotes (sync/remoteTransport.ts):
 * credentials only to the server's own origin (redirects followed by hand), one deadline per answer, answers
 * read up to a size cap, safe requests retried with backoff on network errors, 429 and 5xx. Bodies are text
 * (XML, iCalendar), not JSON.
 */
export interface DavAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Methods that change nothing: retried on trouble. PUT and DELETE carry preconditions and are tried once. */
const SAFE = new Set(['GET', 'PROPFIND', 'REPORT', 'OPTIONS']);
const retryable = (status: number) => status === 429 || status >= 500;

export class DavTransport {
  private readonly origin: string;

  constructor(
    base: string,
    private readonly options: TransportOptions,
  ) {
    this.origin = new URL(base).origin;
  }

  private credentials(): Record<string, string> {
    const auth = this.options.auth;
    if (!auth) return {};
    if ('token' in auth) return { Authorization: `Bearer ${auth.token}` };
    return { Authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` };
  }

  private async once(method: string, url: string, body: string | undefined, headers: Record<string, string>) {
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const cancel = this.options.signal;
    const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
    const host = new URL(url).host;
    let response: Response;
    try {
      response = await fetchKeepingCredentials(
        url,
        { method, headers, body, signal },
        this.credentials(),
        this.origin,
      );
    } catch (error) {
      if (cancel?.aborted) throw new RemoteError('REMOTE_CANCELLED', `The request to ${url} was cancelled.`);
      const failure = networkFailure(error);
      throw new RemoteError('REMOTE_UNREACHABLE', `Could not reach ${host}: ${failure.words}`, null, null, {
        network: failure.code,
        permanent: failure.permanent,
      });
    }
    try {
      const bytes = await readBoundedBody(response, { maxBytes: REMOTE_ANSWER_MAX_BYTES, signal });
      return { status: response.status, headers: response.headers, text: bytes.toString('utf8') };
    } catch (error) {
      if (cancel?.aborted) throw new RemoteError('REMOTE_CANCELLED', `The request to ${url} was cancelled.`);
      if (error instanceof BodyReadError && error.reason === 'too_large')
        throw new RemoteError(
          'REMOTE_TOO_LARGE',
          `The calendar server ${host} answered with more than ${sizeText(REMOTE_ANSWER_MAX_BYTES)} for ${url}, ` +
            'more than Calendar Desk reads in one answer, so it was not read. Tell its administrator.',
          response.status,
        );
      if (deadline.aborted)
        throw new RemoteError(
          'REMOTE_UNREACHABLE',
          `The calendar server ${host} did not finish its answer within ${Math.round(timeoutMs / 1000)} seconds. ` +
            'It may be busy: try again later.',
          null,
          null,
          { network: 'TIMEOUT', permanent: false },
        );
      throw new RemoteError(
        'REMOTE_UNREACHABLE',
        `The connection to ${host} broke while reading the answer.`,
      );
    }
  }

  /** One request; safe methods are retried, and a server still failing after the tries is REMOTE_UNAVAILABLE. */
  async request(
    method: string,
    url: string,
    options: { body?: string; headers?: Record<string, string> } = {},
  ): Promise<DavAnswer> {
    const attempts = SAFE.has(method) ? (this.options.attempts ?? 5) : 1;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
    for (let attempt = 0; ; attempt++) {
      let answer: DavAnswer | null = null;
      let failure: RemoteError | null = null;
      try {
        answer = await this.once(method, url, options.body, options.headers ?? {});
      } catch (error) {
        if (!(error instanceof RemoteError) || error.code !== 'REMOTE_UNREACHABLE') throw error;
        failure = error;
      }
      if (answer && !retryable(answer.status)) return answer;
      if (failure?.data.permanent === true) throw failure;
      if (attempt + 1 >= attempts) {
        if (failure) throw failure;
        if (!SAFE.has(method)) return answer!;
        throw new RemoteError(
          'REMOTE_UNAVAILABLE',
          `The calendar server ${new URL(url).host} answered HTTP ${answer!.status} ${attempts} times in a row ` +
            `(${url}): it is down, overloaded or failing on this request. Run the sync again in a few minutes.`,
          answer!.status,
        );
      }
      const asked = answer ? retryAfterMs(answer.headers.get('retry-after')) : null;
      const waitMs =
        asked !== null
          ? Math.min(asked, this.options.maxRetryAfterMs ?? 60_000)
          : backoffDelay(attempt, this.options.backoffMs ?? 500);
      this.options.onRetry?.({
        attempt: attempt + 1,
        waitMs,
        reason: failure ? failure.message : `HTTP ${answer!.status}`,
      });
      if (this.options.signal?.aborted)
        throw new RemoteError('REMOTE_CANCELLED', `The request to ${url} was cancelled.`);
      await sleep(waitMs);
    }
  }
}
