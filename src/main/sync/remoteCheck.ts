import { NAMESPACE, TRIBE_NAMESPACE } from '../../shared/enums';
import { RemoteClient, RemoteError, type RemoteAuth } from './remoteClient';
import type { RemoteCheckResult } from '../../shared/schemas/sync';

/** Which field of the "add a site" form a failed check is about. */
export type RemoteCheckField = 'root' | 'user' | 'secret' | 'calendar';

/** A check answers within this time, however slow the site: the user is waiting on the form. */
const CHECK_TIMEOUT_MS = 10_000;

/**
 * Where a site's REST root may be, from what the user typed: the site address (https://example.org) gets
 * /wp-json/ added; an address already ending in /wp-json/ is taken as is.
 */
export function rootCandidates(address: string): string[] {
  const base = address.trim().replace(/\/+$/, '');
  return /\/wp-json$/i.test(base) ? [`${base}/`] : [`${base}/wp-json/`, `${base}/`];
}

/** The events namespace to sync with: The Events Calendar's on a WordPress site, else this app's; none: null. */
export function eventsNamespace(namespaces: readonly string[]): string | null {
  if (namespaces.includes(TRIBE_NAMESPACE)) return TRIBE_NAMESPACE;
  if (namespaces.includes(NAMESPACE)) return NAMESPACE;
  return null;
}

/** The form field a remote's refusal is about. */
export function fieldOf(error: RemoteError): RemoteCheckField {
  if (error.remoteCode === 'several_calendars' || error.remoteCode === 'no_such_calendar') return 'calendar';
  if (error.code === 'REMOTE_BAD_CREDENTIALS' || error.code === 'REMOTE_NO_CREDENTIALS') return 'secret';
  if (error.code === 'REMOTE_INSUFFICIENT_ROLE') return 'user';
  return 'root';
}

/**
 * The REST root and events namespace of a site, from what the user typed: tries the address and /wp-json/
 * after a bare site address, and picks The Events Calendar's namespace, else this app's. Throws the RemoteError
 * of the first problem (unreachable, not a REST root, no events calendar there).
 */
export async function findEventsApi(
  address: string,
  auth: RemoteAuth,
): Promise<{ root: string; namespace: string }> {
  let found: { root: string; namespaces: string[] } | null = null;
  let firstFailure: RemoteError | null = null;
  for (const root of rootCandidates(address)) {
    const client = new RemoteClient({ root, namespace: '', auth, attempts: 1, timeoutMs: CHECK_TIMEOUT_MS });
    try {
      found = { root: client.root, namespaces: await client.namespaces() };
      break;
    } catch (error) {
      // An address that cannot be reached at all will not be reached with /wp-json/ either.
      if (!(error instanceof RemoteError) || error.code === 'REMOTE_UNREACHABLE') throw error;
      firstFailure ??= error;
    }
  }
  if (!found) throw firstFailure!;
  const namespace = eventsNamespace(found.namespaces);
  if (!namespace) {
    throw new RemoteError(
      'REMOTE_NOT_THIS_API',
      `${found.root} is a WordPress-style site, but it has no events calendar: install and activate ` +
        'The Events Calendar there (or give the address of a Calendar Desk).',
      null,
      'no_events_namespace',
    );
  }
  return { root: found.root, namespace };
}

/**
 * Checks a site before it is saved, all at once: that the address answers and is a REST root (see
 * {@link findEventsApi}), which events namespace it serves, and that the credentials work and may publish
 * events. Throws the RemoteError of the first problem (see {@link fieldOf} for its field).
 */
export async function checkRemote(address: string, auth: RemoteAuth): Promise<RemoteCheckResult> {
  const found = await findEventsApi(address, auth);
  const namespace = found.namespace;
  await new RemoteClient({
    root: found.root,
    namespace,
    auth,
    attempts: 1,
    timeoutMs: CHECK_TIMEOUT_MS,
  }).verify();
  return {
    root: found.root,
    namespace,
    kind: namespace === TRIBE_NAMESPACE ? 'wordpress' : 'calendar-desk',
  };
}
