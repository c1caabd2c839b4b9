import { sameValue } from './compare';

/** One field changed differently on both sides since the last sync: the three values, for the policy. */
export interface FieldConflict {
  field: string;
  base: unknown;
  local: unknown;
  remote: unknown;
}

/** What a three-way merge of one record decides, field by field. */
export interface MergeResult {
  /** Fields changed on the remote only: the local record takes the remote's value. */
  toLocal: string[];
  /** Fields changed locally only: the remote takes the local value. */
  toRemote: string[];
  /** Fields changed on both sides to different values: never decided here. */
  conflicts: FieldConflict[];
}

/**
 * The three-way merge of one record's comparable fields (all three in the remote's terms, see
 * `comparableLocal`): a field changed on one side only takes that change, the same change on both sides is no
 * change, and a field changed differently on both sides is a conflict with its three values. Values are compared
 * through compare.ts' normalisation, so a difference of representation only (rendered HTML, entities, cost
 * formatting) is not a change. Pure.
 */
export function mergeFields(
  base: Record<string, unknown>,
  local: Record<string, unknown>,
  remote: Record<string, unknown>,
): MergeResult {
  const result: MergeResult = { toLocal: [], toRemote: [], conflicts: [] };
  // The fields the local side has (the remote may show more, which this calendar does not keep).
  for (const [field, localValue] of Object.entries(local)) {
    const remoteValue = remote[field];
    if (sameValue(field, localValue, remoteValue)) continue;
    const baseValue = base[field];
    if (sameValue(field, baseValue, remoteValue)) result.toRemote.push(field);
    else if (sameValue(field, baseValue, localValue)) result.toLocal.push(field);
    else
      result.conflicts.push({
        field,
        base: baseValue ?? null,
        local: localValue,
        remote: remoteValue ?? null,
      });
  }
  return result;
}
