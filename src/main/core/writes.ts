import type { CalendarStore } from '../store/store';
import { scaleBackStatus, type MaybeCaller } from './capabilities';
import { POST_STATUSES, type PostStatus } from '../../shared/enums';

/**
 * Who writes, and when: what every write of core/ takes. The write functions open the store change
 * themselves, so the API, the sync's pull and the CLI apply the same rules through the same function.
 */
export interface WriteCall {
  store: CalendarStore;
  caller: MaybeCaller;
  now: Date;
}

/**
 * A write of one record that the API answers with preconditions of its own: `beforeWrite` runs on the record
 * as it is once every rule has passed, just before the change (the API checks `If-Match` there, so its
 * errors keep their order: a refused rule first, a stale ETag after).
 */
export interface RecordWriteCall<T> extends WriteCall {
  beforeWrite?: (current: T) => void;
}

/**
 * A write the calendar's rules refuse. `status` and `code` are the answer the API contract gives for it
 * (the routes pass them on as they are); the sync reports the message on the record it could not write.
 */
export class WriteRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** WordPress' answer to a caller without the capability (401 when nobody is signed in). */
export function refuseUnless(allowed: boolean, caller: MaybeCaller): void {
  if (!allowed) {
    throw new WriteRefused(caller ? 403 : 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
  }
}

/**
 * The status a post write stores: one Calendar Desk has (the API's arguments check it; a remote's record, which
 * the sync's pull writes, may carry a status of the remote's own plugins), scaled back to what the caller may set.
 */
export function givenStatus(caller: MaybeCaller, status: string | undefined): PostStatus {
  if (status !== undefined && !(POST_STATUSES as readonly string[]).includes(status))
    throw new WriteRefused(
      400,
      'rest_invalid_param',
      `The status ${JSON.stringify(status)} is not one Calendar Desk has.`,
    );
  return scaleBackStatus(caller, status as PostStatus | undefined);
}
