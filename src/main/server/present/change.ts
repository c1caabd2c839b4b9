import type { FeedChange } from '../../core/changes';
import type { StoredEvent, StoredOrganizer, StoredTerm, StoredVenue } from '../../store/schema';
import { etagOf } from '../routes/etag';
import type { PresentEnv } from './common';
import { presentEvent } from './event';
import { presentOrganizer, presentVenue } from './linkedPosts';
import { presentTerm } from './term';

/**
 * One change of the feed on the wire (shared/schemas/changes.ts): an upsert carries the record as the single
 * GET of its kind presents it with `context=edit` to an editor (content of protected records, costs as typed;
 * no json_ld) and its ETag; a delete, the tombstone.
 */
export function presentChange(change: FeedChange, env: PresentEnv) {
  const { seq, kind } = change;
  if (change.action === 'delete') {
    const { id, uid, deletedUtc } = change.tombstone;
    return { seq, kind, id, uid, action: 'delete' as const, modified_utc: deletedUtc };
  }
  const editor: PresentEnv = { ...env, editContext: true };
  const stored = change.record;
  const record =
    kind === 'event'
      ? presentEvent(stored as StoredEvent, editor)
      : kind === 'venue'
        ? presentVenue(stored as StoredVenue, editor, { canEdit: true })
        : kind === 'organizer'
          ? presentOrganizer(stored as StoredOrganizer, editor, { canEdit: true })
          : presentTerm(stored as StoredTerm, editor);
  return {
    seq,
    kind,
    id: stored.id,
    uid: stored.uid,
    action: 'upsert' as const,
    modified_utc: stored.modifiedUtc,
    etag: etagOf(kind === 'category' || kind === 'tag' ? 'term' : kind, stored),
    record,
  };
}
