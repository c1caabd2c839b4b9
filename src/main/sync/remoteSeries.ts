import { stableJson } from './compare';
import type { Link, RemoteRecord } from './model';
import type { RemoteClient } from './remoteClient';

/**
 * Which series the remote's events not linked here belong to, on a remote that has series (a Calendar Desk):
 * its answers show an event's rule and original start but not its head, so the head of each such series is
 * asked for its occurrences (`post_parent`). A head is the first live event of its series, so among the events
 * showing the same rule the earliest not placed yet is a head, or an occurrence of a series linked here. Sets
 * `seriesHeadId` on those events; one request per series, none when every event is linked.
 */
export async function findRemoteSeries(
  client: RemoteClient,
  remote: RemoteRecord[],
  links: Link[],
  /** The remote ids of the series' heads linked here. */
  linkedHeads: Set<number>,
): Promise<void> {
  const linked = new Set(links.filter((link) => link.kind === 'event').map((link) => link.remoteId));
  const inSeries = remote.filter(
    (record) => record.kind === 'event' && Array.isArray(record.fields.recurrence),
  );
  const unplaced = inSeries.filter((record) => !linked.has(record.id));
  if (unplaced.length === 0) return;
  const byId = new Map(inSeries.map((record) => [record.id, record]));
  const ruleOf = (record: RemoteRecord) => stableJson([record.fields.recurrence, record.fields.timezone]);
  const place = async (head: RemoteRecord) => {
    for (const occurrence of await client.seriesOf(head.id)) {
      const known = byId.get(occurrence.id);
      if (known) known.seriesHeadId = head.id;
    }
    if (!linked.has(head.id)) head.seriesHeadId = head.id;
  };
  // New events of series linked here (a rule lengthened there): their heads are linked.
  const rules = new Set(unplaced.map(ruleOf));
  for (const head of inSeries.filter((record) => linkedHeads.has(record.id) && rules.has(ruleOf(record))))
    await place(head);
  const byStart = (a: RemoteRecord, b: RemoteRecord) =>
    String(a.recurrenceId).localeCompare(String(b.recurrenceId)) || a.id - b.id;
  for (;;) {
    const next = unplaced.filter((record) => record.seriesHeadId === undefined).sort(byStart)[0];
    if (!next) return;
    await place(next);
  }
}
