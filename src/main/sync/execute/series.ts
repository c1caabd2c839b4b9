/**
 * Series on a remote that has them (another Calendar Desk): the head goes with its `recurrence` and the remote
 * makes the occurrences itself; ours are linked to them by their original start (`recurrence_id`) rather than
 * sent one by one. An occurrence changed on its own goes as an update of its remote occurrence (scope `this`).
 * A WordPress site (no series in its API) gets every occurrence as an event of its own: nothing here applies.
 */
import type { LocalRecord } from '../model';
import { linkKey } from '../model';
import { linkFor, type ExecuteContext } from './context';

/** Whether the remote takes a series as one. */
export const takesSeries = (context: ExecuteContext): boolean => !context.client.isWordPress;

export const isSeriesHead = (record: LocalRecord): boolean => record.series?.headId === record.id;

/** What a series event adds to its body: the head its lines and, on update, the scope of the edit. */
export function seriesFields(
  context: ExecuteContext,
  record: LocalRecord,
  creating: boolean,
): Record<string, unknown> {
  const series = record.series;
  if (!series || !takesSeries(context)) return {};
  if (!isSeriesHead(record)) return creating ? {} : { scope: 'this' };
  // A head changed on its own only: the others keep what they have there too. Otherwise `following`: from the
  // remote's head it is the whole series; from one of its occurrences (ours split the series there) it splits it.
  return {
    recurrence: series.lines ?? [],
    ...(creating ? {} : { scope: series.override ? 'this' : 'following' }),
  };
}

/**
 * Links the local occurrences of `head` to the remote's, by original start, as they are now (the head was just
 * created or updated there with the series' edit). An occurrence changed on its own keeps its pushed revision,
 * so its own operation still sends it; the others are up to date.
 */
export async function linkOccurrences(
  context: ExecuteContext,
  head: LocalRecord,
  remoteHeadId: number,
): Promise<void> {
  const remoteByStart = new Map(
    (await context.client.seriesOf(remoteHeadId)).map((remote) => [remote.recurrenceId, remote]),
  );
  for (const record of context.options.local.values()) {
    if (record.kind !== 'event' || record.deleted || record.series?.headId !== head.id) continue;
    if (isSeriesHead(record)) continue;
    const remote = remoteByStart.get(record.series.recurrenceId);
    if (!remote) continue;
    // Also when linked to another remote event before: an occurrence moved to a new series (scope following)
    // is that series' occurrence there now (the remote trashed the old one when it split its series).
    const link = context.links.get('event', record.id);
    const pushed = record.series.override ? (link?.pushedRevision ?? null) : record.revision;
    await context.links.put(linkFor('event', record.id, pushed, remote));
  }
}

/**
 * An occurrence the head's sending already brought up to date on the remote (linked there at its revision):
 * its own create or update has nothing left to send.
 */
export function coveredByHead(context: ExecuteContext, record: LocalRecord): boolean {
  if (!takesSeries(context) || !record.series || isSeriesHead(record) || record.series.override) return false;
  const link = context.links.get('event', record.id);
  return link?.remoteId != null && link.pushedRevision === record.revision;
}

/**
 * After an occurrence was deleted there (the remote notes it in its series), the head's baseline is taken anew:
 * that change is ours, not an edit made on the remote.
 */
export async function refreshHeadBaseline(
  context: ExecuteContext,
  record: LocalRecord | undefined,
): Promise<void> {
  const headId = record?.series?.headId;
  if (!takesSeries(context) || headId === undefined || headId === record!.id) return;
  const link = context.links.get('event', headId);
  const head = context.options.local.get(linkKey('event', headId));
  if (!link?.remoteId || !head || link.pushedRevision !== head.revision) return;
  const remote = await context.client.get('event', link.remoteId);
  if (remote) await context.links.put(linkFor('event', headId, link.pushedRevision, remote));
}
