import type { SyncKind } from './model';
import { linkedPostKey } from '../core/linkedPostMatch';

/**
 * What makes two venues (name and address) or two organizers (name and email) the same place or person, so that
 * two created offline on two computers become one record when they meet on the remote: the rule of
 * core/linkedPostMatch.ts (case and accents do not count). Null for the other kinds, and for a record without a
 * name (nothing to recognise it by).
 */
export function sameRecordKey(kind: SyncKind, fields: Record<string, unknown>): string | null {
  if (kind !== 'venue' && kind !== 'organizer') return null;
  const detail = kind === 'venue' ? fields.address : fields.email;
  return linkedPostKey({
    kind,
    name: typeof fields[kind] === 'string' ? fields[kind] : '',
    detail: typeof detail === 'string' ? detail : '',
  });
}
