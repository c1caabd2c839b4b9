export type RemoteErrorCode =
  | 'REMOTE_UNREACHABLE'
  /** Still 502/503/504 (or a 5xx error page) after every retry: the site is down or overloaded. */
  | 'REMOTE_UNAVAILABLE'
  | 'REMOTE_NOT_JSON'
  | 'REMOTE_NOT_THIS_API'
  | 'REMOTE_BAD_CREDENTIALS'
  | 'REMOTE_NO_CREDENTIALS'
  | 'REMOTE_INSUFFICIENT_ROLE'
  | 'REMOTE_HTTP_ERROR'
  | 'REMOTE_UNKNOWN_OUTCOME'
  | 'REMOTE_BAD_RECORD'
  | 'REMOTE_NO_MEDIA_UPLOAD'
  /** An answer over the size limit, or a list longer than a sync reads: not retried. */
  | 'REMOTE_TOO_LARGE'
  /** Stopped by the caller (a sync job cancelled while the remote was read). */
  | 'REMOTE_CANCELLED'
  // Not the remote's doing: venues or organizers of one name the remote would make one (sync/sameNames.ts).
  | 'SYNC_SAME_NAMES';

/** A remote that could not do what was asked; the message says what happened and what to do. */
export class RemoteError extends Error {
  constructor(
    readonly code: RemoteErrorCode,
    message: string,
    readonly status: number | null = null,
    /** The remote's own error code (`term_exists`, `rest_forbidden`…) and data, when it sent JSON. */
    readonly remoteCode: string | null = null,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
