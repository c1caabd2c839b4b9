/**
 * Appends every item to `target`. `target.push(...items)` passes each item as an argument, and V8 refuses
 * (RangeError) once they are more than about 120,000: a journal or a remote listing can be that long.
 */
export function appendAll<T>(target: T[], items: readonly T[]): T[] {
  for (const item of items) target.push(item);
  return target;
}
