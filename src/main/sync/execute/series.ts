/**
 * Series on a remote that has them (another Calendar Desk): the head goes with its `recurrence` and the remote
 * makes the occurrences itself; ours are linked to them by their original start (`recurrence_id`) rather than
 * sent one by one. An occurrence changed on its own goes as an update of its remote occurrence (scope `this`).
 * In a two-way sync the remote's series comes here the same way: its head's changes as the whole series' (or the
 * head's alone), its occurrences linked to ours by original start, ours taking their uids.
 * A WordPress site (no series in its API) gets every occurrence as an event of its own: nothing here applies.
 */
import type { LocalRecord, RemoteRecord } from '../model';
import { linkKey } from '../model';
import { comparableLocal, diffFields, sameValue } from '../compare';
import { wallMs } from '../../core/recurrence/ruleEdits';
import { localRecordOf } from '../localRecords';
import { seriesOccurrences, takeOccurrenceIdentities } from '../../core/recurrence/series';
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
  // A head changed on its own: without the rule, which would make the change one of the whole series there (the
  // rule is the series'); a new rule goes before, on its own (see `sendRuleApart`).
  if (!creating && series.override) return { scope: 'this' };
  // Otherwise `following`: from the remote's head it is the whole series; from one of its occurrences (ours split
  // the series there) it splits it.
  return {
    recurrence: series.lines ?? [],
    ...(creating ? {} : { scope: 'following' }),
  };
}

/**
 * A head changed on its own (an override) whose rule is not the one the remote has: the rule is sent first, on
 * its own with scope `all` (sent with the head's fields it would make them the whole series' there), and the
 * link takes the answer. Returns the precondition (ETag) for the head's own update that follows.
 */
export async function sendRuleApart(
  context: ExecuteContext,
  record: LocalRecord,
  remoteId: number,
  precondition: string | null,
): Promise<string | null> {
  const series = record.series;
  if (!takesSeries(context) || !series?.override || !isSeriesHead(record)) return precondition;
  const link = context.links.get('event', record.id);
  const ruleThere = link?.base?.recurrence;
  if (ruleThere !== undefined && sameValue('recurrence', ruleThere, series.lines ?? [])) return precondition;
  const answer = await context.client.update(
    'event',
    remoteId,
    { recurrence: series.lines ?? [], scope: 'all' },
    precondition,
  );
  await context.links.put(linkFor('event', record.id, link?.pushedRevision ?? null, answer));
  return precondition === null ? null : answer.etag;
}

/**
 * Links the local occurrences of `head` to the remote's, by original start, as they are now (the head was just
 * created or updated there with the series' edit), and gives them the remote's uids (each the same event on
 * both). An occurrence changed on its own keeps its pushed revision, so its own operation still sends it; the
 * others are up to date.
 */
export async function linkOccurrences(
  context: ExecuteContext,
  head: LocalRecord,
  remoteHeadId: number,
): Promise<void> {
  const remoteByStart = new Map(
    (await context.client.seriesOf(remoteHeadId)).map((remote) => [remote.recurrenceId, remote]),
  );
  const twins: Twin[] = [];
  for (const record of occurrencesOf(context, head.id)) {
    const remote = remoteByStart.get(record.series!.recurrenceId);
    if (!remote) continue;
    // Also when linked to another remote event before: an occurrence moved to a new series (scope following)
    // is that series' occurrence there now (the remote trashed the old one when it split its series).
    const link = context.links.get('event', record.id);
    const pushed = record.series!.override ? (link?.pushedRevision ?? null) : record.revision;
    await context.links.put(linkFor('event', record.id, pushed, remote));
    twins.push({ id: record.id, uid: remote.uid ?? '', slug: remote.slug });
  }
  await takeIdentities(context, twins);
}

/**
 * After the remote's series came in here (a series new there imported, or its head's edit taken as an edit of
 * the whole series), the local occurrences not linked yet are linked to the remote's of the same original start
 * and take their uids; what such a remote occurrence has of its own (changed alone there) is taken as a change
 * of that occurrence alone here. Occurrences linked before are left to their own operations.
 */
export async function linkRemoteSeries(
  context: ExecuteContext,
  localHeadId: number,
  remoteHeadId: number,
  pull: (record: LocalRecord, remote: RemoteRecord) => Promise<number>,
): Promise<void> {
  const { links } = context;
  const linkedRemote = new Set(links.all().map((link) => linkKey(link.kind, link.remoteId ?? -1)));
  const remoteByStart = new Map(
    (await context.client.seriesOf(remoteHeadId)).map((remote) => [remote.recurrenceId, remote]),
  );
  const twins: Twin[] = [];
  for (const record of occurrencesOf(context, localHeadId)) {
    const remote = remoteByStart.get(record.series!.recurrenceId);
    if (!remote || links.get('event', record.id)?.remoteId != null) continue;
    if (linkedRemote.has(linkKey('event', remote.id))) continue;
    const revision = await pull(record, remote);
    await links.put(linkFor('event', record.id, revision, remote));
    twins.push({ id: record.id, uid: remote.uid ?? '', slug: remote.slug });
  }
  await takeIdentities(context, twins);
}

/** The fields of a series event that differ between its local version now and `remote`, in the remote's terms. */
export function differingFields(
  context: ExecuteContext,
  record: LocalRecord,
  remote: RemoteRecord,
): string[] {
  const compared = comparableLocal(record, context.links.remoteIdOf, context.links.remoteMediaIdOf, remote);
  return diffFields(compared, remote.fields).map((change) => change.field);
}

/**
 * Which of `fields`, changed on the remote head of a series, were changed on the head alone there (scope
 * `this`), not on the series: a field none of the series' other events shows with the head's new value; its
 * start and end when it no longer starts at its original start (a series moved takes its new start as the
 * original one) or no other event lasts as long. The rule is the series' always. None for a series of one event.
 */
export async function changedOnHeadAlone(
  context: ExecuteContext,
  remoteHead: RemoteRecord,
  fields: string[],
): Promise<string[]> {
  if (fields.every((field) => field === 'recurrence')) return [];
  const rest = await context.client.seriesOf(remoteHead.id);
  if (rest.length === 0) return [];
  const head = remoteHead.fields;
  const lasting = (record: Record<string, unknown>) =>
    wallMs(String(record.end_date)) - wallMs(String(record.start_date));
  const movedAlone = remoteHead.recurrenceId != null && remoteHead.recurrenceId !== head.start_date;
  return fields.filter((field) => {
    if (field === 'recurrence') return false;
    if (field === 'start_date') return movedAlone;
    if (field === 'end_date')
      return movedAlone || !rest.some((other) => lasting(other.fields) === lasting(head));
    return !rest.some((other) => sameValue(field, other.fields[field], head[field]));
  });
}

/** The local occurrences (not the head, none in the trash) of the series of `headId`, as they are now. */
function occurrencesOf(context: ExecuteContext, headId: number): LocalRecord[] {
  const store = context.options.store;
  const head = store.events.get(headId);
  if (!head) return [];
  return seriesOccurrences(store, head)
    .filter((event) => event.status !== 'trash')
    .map((event) => localRecordOf(store, 'event', event.id)!);
}

interface Twin {
  id: number;
  uid: string;
  slug: string;
}

const takeIdentities = (context: ExecuteContext, twins: Twin[]) =>
  takeOccurrenceIdentities(
    context.options.store,
    twins.filter((twin) => twin.uid !== ''),
    context.options.caller,
  );

/**
 * An occurrence the head's sending already brought up to date on the remote (linked there at its revision):
 * its own create or update has nothing left to send.
 */
export function coveredByHead(context: ExecuteContext, record: LocalRecord): boolean {
  if (!takesSeries(context) || !record.series || isSeriesHead(record) || record.series.override) return false;
  const link = context.links.get('event', record.id);
  // As it is now: the head's series edit taken from the remote earlier in this run may have changed it.
  const revision = context.options.store.events.get(record.id)?.revision ?? record.revision;
  return link?.remoteId != null && link.pushedRevision === revision;
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
