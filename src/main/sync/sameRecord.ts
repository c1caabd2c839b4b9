import type { SyncKind } from './model';
import { comparableText } from './compare';

/** A text compared as people read it: entities and spacing as compare.ts does, then without case or accents. */
function folded(value: unknown): string {
  return comparableText(typeof value === 'string' ? value : '')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/**
 * What makes two venues (name and address) or two organizers (name and email) the same place or person, so that
 * two created offline on two computers become one record when they meet on the remote; case and accents do not
 * count. Null for the other kinds,
 * and for a record without a name (nothing to recognise it by).
 */
export function sameRecordKey(kind: SyncKind, fields: Record<string, unknown>): string | null {
  if (kind !== 'venue' && kind !== 'organizer') return null;
  const name = folded(fields[kind]);
  if (!name) return null;
  const second = kind === 'venue' ? folded(fields.address) : folded(fields.email);
  return `${kind}:${name}|${second}`;
}
