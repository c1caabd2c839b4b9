import { linkKey, type LocalRecord, type Operation, type RemoteRecord } from './model';

/** Operations sent at once by default: what a small WordPress site serves well (its PHP workers). */
export const DEFAULT_CONCURRENCY = 4;

/** Deeper category trees than this are not expected; the number only has to exceed the deepest one. */
const MAX_DEPTH = 1_000;

/**
 * The plan's operations in stages that may each run concurrently, in the order their dependencies need:
 * parent categories (with tags) before their children, all terms before venues and organizers, those before
 * events; deletions after every other change, in the reverse order (events first, parents last).
 */
export function stagesOf(
  operations: Operation[],
  local: Map<string, LocalRecord>,
  /** A category new on the remote: its depth in the remote's tree (its parent is imported first). */
  importDepth: (remoteCategoryId: number) => number = () => 0,
): Operation[][] {
  const depth = (categoryId: number) => {
    let level = 0;
    const seen = new Set<number>();
    for (
      let at = local.get(linkKey('category', categoryId))?.refs.parent ?? 0;
      at && !seen.has(at) && level < MAX_DEPTH - 1;
      at = local.get(linkKey('category', at))?.refs.parent ?? 0
    ) {
      seen.add(at);
      level++;
    }
    return level;
  };
  const level = (operation: Operation) =>
    operation.kind === 'category'
      ? operation.type === 'import'
        ? importDepth(operation.remoteId)
        : depth(operation.localId)
      : operation.kind === 'tag'
        ? 0
        : operation.kind === 'event'
          ? eventLevel(local.get(linkKey('event', operation.localId)))
          : MAX_DEPTH;
  const stageOf = (operation: Operation) =>
    operation.type === 'delete' ? 2 * MAX_DEPTH + 3 + (MAX_DEPTH + 2 - level(operation)) : level(operation);
  const stages = new Map<number, Operation[]>();
  for (const operation of operations) {
    const stage = stageOf(operation);
    const list = stages.get(stage);
    if (list) list.push(operation);
    else stages.set(stage, [operation]);
  }
  return [...stages.keys()].sort((a, b) => a - b).map((stage) => stages.get(stage)!);
}

/** The depth of a remote category in the remote's tree, from the records read (parents' ids in `fields.parent`). */
export function remoteCategoryDepth(remote: Map<string, RemoteRecord>): (remoteCategoryId: number) => number {
  return (remoteCategoryId) => {
    let level = 0;
    const seen = new Set<number>();
    for (
      let at = Number(remote.get(linkKey('category', remoteCategoryId))?.fields.parent ?? 0);
      at && !seen.has(at) && level < MAX_DEPTH - 1;
      at = Number(remote.get(linkKey('category', at))?.fields.parent ?? 0)
    ) {
      seen.add(at);
      level++;
    }
    return level;
  };
}

/**
 * Events after venues and organizers; on a remote with series, occurrences after their head (which links them)
 * and each head in a stage of its own, the newest first: a series split from an occurrence on (scope following)
 * is split there from that occurrence before the first series' shortened rule removes it.
 */
function eventLevel(record: LocalRecord | undefined): number {
  if (!record?.series) return MAX_DEPTH + 1;
  if (record.series.headId !== record.id) return MAX_DEPTH + 2;
  return MAX_DEPTH + 1 + 0.5 * (1 - record.id / 2 ** 40);
}

/**
 * Runs `work` on each item with at most `limit` at a time, in order; `mayStart` is asked before each start
 * (false: nothing more starts, what runs is awaited). Answers once every started item has settled.
 */
export async function inPool<T>(
  items: T[],
  limit: number,
  mayStart: () => boolean,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && mayStart()) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
