/** How The Events Calendar reads loose request values: truthy words and comma lists. */

/**
 * A loose value as text: a string as it is, a number or boolean written out, anything else (never expected where
 * this is used, after validation) as its JSON rather than "[object Object]".
 */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value === null || value === undefined) return '';
  return JSON.stringify(value) ?? '';
}

/** The truthy words The Events Calendar accepts where it tests values loosely (`tribe_is_truthy`). */
export const TRUTHY_WORDS = ['1', 'true', 'yes', 'on', 'y', 'enable', 'enabled'];
export const isTruthy = (value: unknown): boolean =>
  value === true ||
  (typeof value === 'number' && value !== 0) ||
  TRUTHY_WORDS.includes(String(value).trim().toLowerCase());

/**
 * `Tribe__Utils__Array::list_to_array`: an array is used as-is; a string is split on commas, items trimmed,
 * empty items dropped; numeric items become numbers.
 */
export function listToArray(value: unknown): unknown[] {
  const items: unknown[] = Array.isArray(value)
    ? (value as unknown[])
    : typeof value === 'string'
      ? decodeMaybe(value).split(',')
      : value === null || value === undefined
        ? []
        : [value];
  return items
    .map((item) => (typeof item === 'string' ? item.trim() : item))
    .filter((item) => item !== '' && item !== null && item !== undefined)
    .map((item) => (typeof item === 'string' && /^-?\d+(\.\d+)?$/.test(item) ? Number(item) : item));
}

function decodeMaybe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
