import { randomUUID } from 'node:crypto';
import type { MaybeCaller } from './capabilities';

/**
 * The `uid` of a new event, venue, organizer, category or tag (CONTRACT §2): a random UUID, the record's
 * identity across data folders. Every create in core takes it from here; nothing changes it afterwards.
 */
export function newUid(): string {
  return randomUUID();
}

/**
 * The uid a create may bring (CONTRACT §2, extension argument `uid`): an administrator's, as a sync from another
 * Calendar Desk sends it so the record is the same on both calendars (its format is checked with the
 * arguments). Anyone else's is ignored, as the read-only field it is. One another record of the kind already
 * has (a record trashed on the remote and pushed again) is not taken either: two records would become one, and
 * refusing would stop the sync. Undefined: the record gets a new uid.
 */
export function givenUid(
  uid: unknown,
  caller: MaybeCaller,
  records: Iterable<{ uid: string }>,
): string | undefined {
  if (typeof uid !== 'string' || uid === '' || caller?.role !== 'administrator') return undefined;
  const wanted = uid.toLowerCase();
  for (const record of records) if (record.uid === wanted) return undefined;
  return wanted;
}
