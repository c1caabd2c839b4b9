import type { StoredEvent } from './schema';

/**
 * The event fields whose values repeat across a calendar: a few statuses, languages, zones and currencies, a few
 * hundred titles, and dates that many events share. `JSON.parse` makes a new string for every value it reads;
 * at 100,000 events these copies took ~30 MB (issue 32: memory after the distinct lists).
 */
const REPEATING_FIELDS = [
  'kind',
  'status',
  'language',
  'timezone',
  'currencySymbol',
  'currencyPosition',
  'currencyCode',
  'title',
  'excerpt',
  'dateUtc',
  'modifiedUtc',
  'startLocal',
  'endLocal',
  'startUtc',
  'endUtc',
  'recurrenceId',
] as const satisfies readonly (keyof StoredEvent)[];

/** Values longer than this are left alone (a title this long rarely repeats). */
const LONGEST = 80;

/**
 * One string per distinct value of the repeating fields of the events read from the disk, so that equal values
 * share their memory. Used while a start reads the records, then dropped (`clear`): its map would cost more
 * than the few strings later writes could share.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();

  /** Makes `event`'s repeating fields the pool's strings (the event was just parsed: nobody else holds it). */
  internEvent(event: StoredEvent): void {
    const record = event as unknown as Record<string, unknown>;
    for (const field of REPEATING_FIELDS) {
      const value = record[field];
      if (typeof value === 'string' && value.length <= LONGEST) record[field] = this.intern(value);
    }
  }

  clear(): void {
    this.strings.clear();
  }

  private intern(value: string): string {
    const pooled = this.strings.get(value);
    if (pooled !== undefined) return pooled;
    this.strings.set(value, value);
    return value;
  }
}
