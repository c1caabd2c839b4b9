/** The shapes an event's `venue`/`organizer` value may take (REFERENCE §5.4). */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Normalises an event's `venue`/`organizer` value (REFERENCE §5.4): empty values mean none; a scalar or CSV
 * string lists ids; an object is one entry; a list holds ids, `{id}` objects or field objects.
 * Returns null when some entry is invalid.
 */
export function linkedEntries(value: unknown): Array<number | Record<string, unknown>> | null {
  if (
    value === null ||
    value === undefined ||
    value === '' ||
    value === 0 ||
    value === '0' ||
    value === false
  )
    return [];
  const list: unknown[] = Array.isArray(value)
    ? value
    : isRecord(value)
      ? [value]
      : typeof value === 'string'
        ? value.split(',').map((item) => item.trim())
        : [value];
  const entries: Array<number | Record<string, unknown>> = [];
  for (const item of list) {
    if (item === '' || item === 0 || item === '0' || item === null) continue;
    if (typeof item === 'number' || (typeof item === 'string' && /^\d+$/.test(item)))
      entries.push(Number(item));
    else if (isRecord(item)) entries.push(item);
    else return null;
  }
  return entries;
}

/** Inline venue data may use `stateProvince` (the plugin's own form field name). */
export function normaliseInlineKeys(entry: Record<string, unknown>): Record<string, unknown> {
  const { stateProvince, ...rest } = entry;
  return stateProvince !== undefined && rest.stateprovince === undefined
    ? { ...rest, stateprovince: stateProvince }
    : rest;
}
