import { randomUUID } from 'node:crypto';

/**
 * The `uid` of a new event, venue, organizer, category or tag (CONTRACT §2): a random UUID, the record's
 * identity across data folders. Every create in core takes it from here; nothing changes it afterwards.
 */
export function newUid(): string {
  return randomUUID();
}
