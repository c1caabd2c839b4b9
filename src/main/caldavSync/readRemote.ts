import type { RecordFailure } from '../../shared/schemas/sync';
import type { Link, RemoteRecord } from '../sync/model';
import type { LinkState } from '../sync/linkState';
import type { DavCalendar } from './davCalendar';
import { numberOf, remoteRecordOf, unchangedRecordOf, type RemoteResource } from './resources';

/**
 * Reads what the sync needs of the calendar on the server: which resources exist and which changed since the
 * last sync, by sync-collection (RFC 6578) from the saved token where the server offers it, else by the ETags
 * of a PROPFIND; only changed resources are fetched (calendar-multiget, in batches). A resource whose
 * iCalendar cannot be read is one failure in the server's words; the others go on.
 */
export interface RemoteRead {
  records: RemoteRecord[];
  /** The resources read, by remote id: what a write starts from (the lines other apps added stay). */
  resources: Map<number, RemoteResource>;
  /** Resources that could not be read: left as they are on both sides. */
  failures: RecordFailure[];
  /** The token to save once the sync leaves nothing open (null: the server offers none). */
  token: string | null;
  /** How the changes were found, for the report. */
  by: 'sync-collection' | 'etags';
}

const nameOfHref = (href: string) => decodeURIComponent(href.split('/').pop() ?? href);

/** Which resources exist (with their ETags) and which of them to fetch. */
async function listing(
  dav: DavCalendar,
  linkByHref: Map<string, Link>,
  token: string | null,
  freshToken?: string | null,
) {
  const changes = token ? await dav.changesSince(token) : null;
  if (changes) {
    const etags = new Map<string, string | null>();
    for (const [href, link] of linkByHref) if (!changes.gone.has(href)) etags.set(href, link.remoteEtag);
    for (const [href, etag] of changes.changed) etags.set(href, etag);
    return {
      etags,
      toFetch: [...changes.changed.keys()],
      token: changes.token,
      by: 'sync-collection' as const,
    };
  }
  // The token is taken before the listing: a change made while listing is seen again by the next sync.
  const fresh = freshToken !== undefined ? freshToken : (await dav.state()).token;
  const etags = await dav.etags();
  const toFetch = [...etags]
    .filter(([href, etag]) => !etag || linkByHref.get(href)?.remoteEtag !== etag)
    .map(([href]) => href);
  return { etags, toFetch, token: fresh, by: 'etags' as const };
}

/**
 * `freshToken`: the collection's sync token just read (the sync's first round checks the calendar with that
 * same request), so that a listing by ETags does not ask for it again.
 */
export async function readRemote(
  dav: DavCalendar,
  links: LinkState,
  freshToken?: string | null,
): Promise<RemoteRead> {
  const linkByHref = new Map(
    links
      .all()
      .flatMap((link) =>
        link.remoteHref && link.remoteId !== null ? [[link.remoteHref, link] as const] : [],
      ),
  );
  const listed = await listing(dav, linkByHref, links.meta.davToken ?? null, freshToken);
  const fetched = await dav.multiget(listed.toFetch);
  const read: RemoteRead = {
    records: [],
    resources: new Map(),
    failures: [],
    token: listed.token,
    by: listed.by,
  };
  for (const [href, etag] of listed.etags) {
    const link = linkByHref.get(href);
    const got = fetched.get(href);
    if (!got) {
      if (link) read.records.push(unchangedRecordOf(link));
      continue;
    }
    if ('status' in got) {
      if (got.status === 404) continue; // gone between the listing and the read
      read.failures.push({
        kind: 'event',
        localId: link?.localId ?? 0,
        title: nameOfHref(href),
        code: 'remote_bad_record',
        message: `The calendar server could not give ${nameOfHref(href)} (HTTP ${got.status}): it is left as it is, there and here.`,
      });
      if (link) read.records.push(unchangedRecordOf(link));
      continue;
    }
    const resource = { href, etag: got.etag ?? etag, text: got.text };
    let record: RemoteRecord | null;
    try {
      record = remoteRecordOf(resource);
    } catch (error) {
      read.failures.push({
        kind: 'event',
        localId: link?.localId ?? 0,
        title: nameOfHref(href),
        code: 'remote_bad_record',
        message: `The event ${nameOfHref(href)} on the calendar server is not valid iCalendar (${(error as Error).message}): it is left as it is, there and here.`,
      });
      if (link) read.records.push(unchangedRecordOf(link));
      continue;
    }
    if (!record) continue; // a task or a journal: not an event, not ours to sync
    read.records.push(record);
    read.resources.set(numberOf(href), resource);
  }
  return read;
}
