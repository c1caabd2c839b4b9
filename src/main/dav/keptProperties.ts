import ICAL from 'ical.js';
import { isMappedProperty } from '../exchange/icsFields';
import type { CalendarStore } from '../store/store';
import type { Caller } from '../core/capabilities';
import type { Transaction } from '../store/store';

/**
 * What a calendar app puts in a VEVENT that Calendar Desk does not model (reminders as VALARM, ATTENDEE,
 * `X-MOZ-*`, `X-APPLE-*`, TRANSP, CLASS, …): kept per user and resource in the store's sync state,
 * written in the same store change as the event, and given back in every answer to that user, so the app
 * never sees its own data change (no sync loops) and one user's reminders never reach another.
 */

/** The properties the mapping writes itself (exchange/icsFields.ts): never kept, always ours. */
const isModelled = isMappedProperty;

/** Kept lines per VEVENT: '' for the series (or single event), else the override's RECURRENCE-ID digits. */
export type Kept = Record<string, string[]>;

/** As stored: the lines, and the user's kept-change counter when they were saved (for sync-collection). */
interface KeptRecord {
  at: number;
  vevents: Kept;
}

const PREFIX = 'dav:';
const keyOf = (userId: number, uid: string) => `${PREFIX}${userId}|${uid}`;
const counterKey = (userId: number) => `davseq:${userId}`;

function recordOf(store: CalendarStore, key: string): KeptRecord | null {
  const kept = store.syncState(key) as KeptRecord | undefined;
  return kept && typeof kept === 'object' && typeof kept.at === 'number' ? kept : null;
}

export function keptOf(store: CalendarStore, caller: Caller, uid: string): Kept | null {
  return recordOf(store, keyOf(caller.userId, uid))?.vevents ?? null;
}

/** When the user's kept lines of a resource last changed (their counter then; 0 for none). */
export function keptStamp(store: CalendarStore, caller: Caller, uid: string): number {
  return recordOf(store, keyOf(caller.userId, uid))?.at ?? 0;
}

/** How many times the user's kept lines changed: part of the sync token, since the change feed misses them. */
export function keptCounter(store: CalendarStore, caller: Caller): number {
  const counter = store.syncState(counterKey(caller.userId));
  return typeof counter === 'number' ? counter : 0;
}

/** The uids whose kept lines changed after the counter was at `since`. */
export function keptChangedSince(store: CalendarStore, caller: Caller, since: number): string[] {
  const prefix = `${PREFIX}${caller.userId}|`;
  return store
    .syncKeys(prefix)
    .filter((key) => (recordOf(store, key)?.at ?? 0) > since)
    .map((key) => key.slice(prefix.length));
}

const sameKept = (a: Kept | null, b: Kept | null) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/** Saves (or with null, forgets) what the user's app added to the resource, inside the event's store change. */
export function saveKept(
  tx: Transaction,
  store: CalendarStore,
  caller: Caller,
  uid: string,
  kept: Kept | null,
): void {
  const empty = !kept || Object.values(kept).every((lines) => lines.length === 0);
  const before = keptOf(store, caller, uid);
  if (sameKept(before, empty ? null : kept)) return;
  const at = keptCounter(store, caller) + 1;
  tx.setSyncState(counterKey(caller.userId), at);
  tx.setSyncState(keyOf(caller.userId, uid), empty ? null : { at, vevents: kept });
}

/** The digits of a date or date-time value (`20261215T193000`), as keys of overrides. */
const digitsOf = (value: string) => value.replace(/[^0-9T]/g, '');

/** What of a client's VCALENDAR is not ours to model, per VEVENT. */
export function keptFrom(root: ICAL.Component): Kept {
  const kept: Kept = {};
  for (const vevent of root.getAllSubcomponents('vevent')) {
    const recurrenceId = vevent.getFirstProperty('recurrence-id');
    const key = recurrenceId ? digitsOf(String(recurrenceId.getFirstValue()?.toString() ?? '')) : '';
    const lines: string[] = [];
    for (const property of vevent.getAllProperties())
      if (!isModelled(property.name.toUpperCase())) lines.push(property.toICALString());
    for (const component of vevent.getAllSubcomponents()) lines.push(component.toString());
    if (lines.length) kept[key] = lines;
  }
  return kept;
}

/** The written resource with the kept lines put back into their VEVENTs (before each END:VEVENT). */
export function withKept(text: string, kept: Kept | null): string {
  if (!kept) return text;
  const lines = text.split('\r\n');
  const out: string[] = [];
  let key = '';
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') key = '';
    const recurrence = /^RECURRENCE-ID[;:]/.exec(line) ? line.slice(line.lastIndexOf(':') + 1) : null;
    if (recurrence !== null) key = digitsOf(recurrence);
    if (line === 'END:VEVENT') for (const keptLine of kept[key] ?? []) out.push(...keptLine.split(/\r?\n/));
    out.push(line);
  }
  return out.join('\r\n');
}
