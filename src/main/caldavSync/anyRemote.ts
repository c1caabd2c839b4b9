import { TRIBE_NAMESPACE } from '../../shared/enums';
import type { RemoteAuth, RemoteCheckResult } from '../../shared/schemas/sync';
import { RemoteError } from '../sync/remoteErrors';
import { checkRemote, findEventsApi } from '../sync/remoteCheck';
import { runSync, type SyncOptions, type SyncReport } from '../sync/sync';
import { CALDAV_NAMESPACE, isCaldavRemote, runCaldavSync } from './caldavSync';
import { findCalendar } from './discovery';

/**
 * Every kind of remote behind one door: a WordPress site with The Events Calendar, another Calendar Desk (both
 * REST, sync/), or a CalDAV calendar (this folder). What the user typed is tried as a REST site first, then as
 * a CalDAV server; the remote saved or given says which it is by its namespace.
 */

/** A check answers within this time, however slow the server: the user is waiting on the form. */
const CHECK_LIMITS = { attempts: 1, timeoutMs: 10_000 };

export function runAnySync(options: SyncOptions): Promise<SyncReport> {
  return isCaldavRemote(options.remote) ? runCaldavSync(options) : runSync(options);
}

/** The calendar of a CalDAV server, checked with the credentials. */
async function findCaldav(address: string, auth: RemoteAuth, calendar?: string): Promise<RemoteCheckResult> {
  const found = await findCalendar(address, { auth, ...CHECK_LIMITS }, calendar);
  return { root: found.url, namespace: CALDAV_NAMESPACE, kind: 'caldav', calendar: found.name };
}

/**
 * Where to sync for what the user typed: the REST root and namespace of a site, or a CalDAV calendar's address
 * (`calendar` picks one by name when the account has several, and says it is CalDAV). `check` also verifies
 * that the credentials may publish on a REST site.
 */
export async function findAnyRemote(
  address: string,
  auth: RemoteAuth,
  options: { calendar?: string; check?: boolean } = {},
): Promise<RemoteCheckResult> {
  if (options.calendar !== undefined) return findCaldav(address, auth, options.calendar);
  let restFailure: unknown;
  try {
    if (options.check) return await checkRemote(address, auth);
    const api = await findEventsApi(address, auth);
    return { ...api, kind: api.namespace === TRIBE_NAMESPACE ? 'wordpress' : 'calendar-desk' };
  } catch (error) {
    // A site that answers as a REST API (even to refuse) is not a CalDAV server; nor is one out of reach.
    const restAnswered =
      error instanceof RemoteError &&
      (error.code === 'REMOTE_UNREACHABLE' ||
        (error.code === 'REMOTE_NOT_THIS_API' && error.remoteCode === 'no_events_namespace') ||
        (options.check === true &&
          ['REMOTE_BAD_CREDENTIALS', 'REMOTE_INSUFFICIENT_ROLE'].includes(error.code)));
    if (restAnswered || !(error instanceof RemoteError)) throw error;
    restFailure = error;
  }
  try {
    return await findCaldav(address, auth);
  } catch (error) {
    if (error instanceof RemoteError && error.remoteCode === 'not_caldav') throw restFailure;
    throw error;
  }
}
