import { REF_KIND } from './compare';
import { linkKey, type Link, type RemoteRecord } from './model';

/**
 * A link's base without its references to remote records that are gone from the remote (a venue or organizer
 * deleted there by the sync of this calendar's trash: no longer linked, nor read from there) where the
 * remote's version no longer shows them either: that is the deletion's doing (the plugin hides a trashed venue
 * from its events), not an edit of the record. Kept, the stale reference made the next change on either side
 * look like an edit on both (a restored venue made each of its events a conflict).
 */
export function withoutGoneRefs(
  link: Link,
  remoteById: Map<string, RemoteRecord>,
  /** `kind:remoteId` of every record linked here: one of them is not gone, only unread (a change feed). */
  linkedRemote: Set<string>,
): Link {
  const remote = link.remoteId === null ? undefined : remoteById.get(linkKey(link.kind, link.remoteId));
  if (!link.base || !remote) return link;
  let base: Record<string, unknown> | null = null;
  for (const [field, kind] of Object.entries(REF_KIND)) {
    const value = link.base[field];
    const shown = remote.fields[field];
    const gone = (id: unknown) =>
      typeof id === 'number' &&
      id !== 0 &&
      !remoteById.has(linkKey(kind, id)) &&
      !linkedRemote.has(linkKey(kind, id));
    if (typeof value === 'number' && gone(value) && shown !== value) {
      base ??= { ...link.base };
      base[field] = 0;
    } else if (Array.isArray(value)) {
      const kept = value.filter((id) => !gone(id) || (Array.isArray(shown) && shown.includes(id)));
      if (kept.length === value.length) continue;
      base ??= { ...link.base };
      base[field] = kept;
    }
  }
  return base ? { ...link, base } : link;
}
