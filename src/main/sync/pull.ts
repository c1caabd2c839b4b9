import type { CalendarStore, Transaction } from '../store/store';
import type { Caller } from '../core/capabilities';
import { addEvent, addEvents, changeEvent, trashEvent } from '../core/events';
import { EventRuleError, type EventInput } from '../core/eventRecord';
import {
  addLinkedPost,
  changeLinkedPost,
  trashLinkedPost,
  type OrganizerInput,
  type VenueInput,
} from '../core/linkedPosts';
import { addTerm, changeTerm, removeTerm, type TermChanges } from '../core/terms';
import type { StoredEvent } from '../store/schema';
import { decodeHtmlEntities, toPlainText } from '../core/html';
import { costDetailsValues, eventCurrency, siteCurrency, typedCost } from '../core/cost';
import { WriteRefused } from '../core/writes';
import { RecordProblem } from './eventPassword';
import type { RemoteRecord, RemoteTexts, SyncKind } from './model';
import { EVENT_FLAG_FIELDS, EVENT_TEXT_FIELDS } from '../../shared/fields/event';
import { objectOfRows } from '../../shared/fields/table';

/** Local id of a remote record, as far as the links know it. */
export type LocalIdOf = (kind: SyncKind, remoteId: number) => number | null;
/** Local media id of a remote picture, as far as the media links know it. */
export type LocalMediaOf = (remoteMediaId: number) => number | null;

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const flag = (value: unknown) => value === true;

/**
 * The remote's version of a record written into the local record `localId`: all of what the sync compares, or
 * only the fields in `only` (a three-way merge takes the remote's changes and keeps the local ones). References
 * go through the links (a remote reference that is not linked is left as it is here). It is written by the same
 * core functions as the API's writes, as `caller` (who started the sync), so the same rules apply: a version
 * those refuse (a category parent that makes a loop, a record the caller may not change) is a
 * {@link RecordProblem} of that record. A record in the local trash that the remote has is restored. Returns the
 * new local revision.
 */
export async function pullIntoLocal(
  store: CalendarStore,
  kind: SyncKind,
  localId: number,
  remote: RemoteRecord,
  localIdOf: LocalIdOf,
  now: Date,
  caller: Caller,
  localMediaOf: LocalMediaOf = () => null,
  only?: ReadonlySet<string>,
  /**
   * An event of a series: `all` takes the remote head's version as an edit of the whole series (its rule too,
   * when the remote shows one); `this` (the default) as a change of that event alone.
   */
  scope: 'this' | 'all' = 'this',
): Promise<number> {
  const call = { store, caller, now };
  const refused = refusedAs(caller);
  // An event's currency goes with its cost (the fields the planner compares are its numbers, `cost`).
  const taken = (key: string) => only!.has(key) || (key.startsWith('currency_') && only!.has('cost'));
  const kept = <T extends object>(input: T): T =>
    only ? (Object.fromEntries(Object.entries(input).filter(([key]) => taken(key))) as T) : input;
  if (kind === 'event') {
    const current = store.events.get(localId)!;
    const series = scope === 'all' ? seriesInputOf(remote) : {};
    const input: EventInput = kept({
      ...eventInputOf(remote, localIdOf, localMediaOf, current),
      ...costInputOf(remote, store, current),
      ...series,
    });
    // Deleted here, still there: the record comes back (its status is the remote's).
    if (current.status === 'trash' && !input.status) input.status = text(remote.fields.status) || 'publish';
    // Nothing to take (an event of a series already brought up to date by its head): not an edit of its own.
    if (Object.keys(input).length === 0) return current.revision;
    // Another calendar's organizer list as it is there (a merge there may have replaced a trashed one).
    const taking = { ...call, organizersAsGiven: true };
    return (await changeEvent(localId, scope === 'all' ? { ...input, scope } : input, taking).catch(refused))
      .revision;
  }
  if (kind === 'venue' || kind === 'organizer') {
    const current = kind === 'venue' ? store.venues.get(localId)! : store.organizers.get(localId)!;
    const input = kept(linkedPostInputOf(remote, localMediaOf));
    if (current.status === 'trash') input.status = text(remote.fields.status) || 'publish';
    return (await changeLinkedPost(kind, localId, input, call).catch(refused)).revision;
  }
  const current = store.terms.get(localId)!;
  const input = kept(termInputOf(kind, remote, localIdOf));
  const changes: TermChanges = {
    // Sent only when changed, as the API's own update would: a rename is checked against its siblings' names.
    ...(input.name && input.name !== current.name ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.parent !== undefined && input.parent !== current.parent ? { parent: input.parent } : {}),
  };
  return (await changeTerm(localId, changes, call).catch(refused)).revision;
}

/**
 * A record new on the remote, created here by the core writes as `caller`, with the remote's uid when it has
 * one (the same record on every instance). Returns the new local id and revision.
 */
export async function importIntoLocal(
  store: CalendarStore,
  kind: SyncKind,
  remote: RemoteRecord,
  localIdOf: LocalIdOf,
  now: Date,
  caller: Caller,
  localMediaOf: LocalMediaOf = () => null,
): Promise<{ id: number; revision: number }> {
  // The remote's records carry no language this calendar reads: English, as any record created without one.
  const call = { store, caller, now, language: 'en' as const };
  const refused = refusedAs(caller);
  const uid = remote.uid ? { uid: remote.uid } : {};
  const slug = remote.slug ? { slug: remote.slug } : {};
  if (kind === 'event')
    return addEvent(importedEventInput(store, remote, localIdOf, localMediaOf), call).catch(refused);
  if (kind === 'venue' || kind === 'organizer') {
    const status = text(remote.fields.status);
    const input = { ...linkedPostInputOf(remote, localMediaOf), ...(status ? { status } : {}), ...uid };
    // New here: the plan found no record of the same name and address to be its twin (sync/sameRecord.ts). One
    // of the same name only is another place, never overwritten with this one's address (nor linked twice).
    return addLinkedPost(kind, input, call, { avoidDuplicates: false }).catch(refused);
  }
  const input = termInputOf(kind, remote, localIdOf);
  return addTerm(kind, { ...input, name: input.name ?? '', ...slug, ...uid }, call).catch(refused);
}

/**
 * Events new on the remote (a page of them), created here in one store change as `caller`; `also` runs in that
 * change with the events made, in the order of `remotes` (the sync writes their links there). One refused event
 * takes the whole change back (the caller then imports them one by one, to tell which).
 */
export async function importEventsIntoLocal<T>(
  store: CalendarStore,
  remotes: RemoteRecord[],
  localIdOf: LocalIdOf,
  now: Date,
  caller: Caller,
  localMediaOf: LocalMediaOf,
  also: (tx: Transaction, created: StoredEvent[]) => T,
): Promise<{ created: StoredEvent[]; also: T }> {
  const inputs = remotes.map((remote) => importedEventInput(store, remote, localIdOf, localMediaOf));
  return addEvents(inputs, { store, caller, now, language: 'en' }, also).catch(refusedAs(caller));
}

/** A remote event as the arguments of a local create, with its uid, slug and (a series' head) rule. */
function importedEventInput(
  store: CalendarStore,
  remote: RemoteRecord,
  localIdOf: LocalIdOf,
  localMediaOf: LocalMediaOf,
): EventInput {
  // The head of a remote series comes with its rule: the series is made here from it (its occurrences are
  // then linked to the remote's, see execute/series.ts).
  const series = remote.seriesHeadId === remote.id ? seriesInputOf(remote) : {};
  return {
    ...eventInputOf(remote, localIdOf, localMediaOf),
    ...costInputOf(remote, store),
    ...series,
    ...(remote.slug ? { slug: remote.slug } : {}),
    ...(remote.uid ? { uid: remote.uid } : {}),
  };
}

/** Moves to the local trash a record the remote deleted (a term, which has no trash, is deleted). */
export async function trashLocal(
  store: CalendarStore,
  kind: SyncKind,
  localId: number,
  now: Date,
  caller: Caller,
): Promise<void> {
  const call = { store, caller, now };
  const refused = refusedAs(caller);
  if (kind === 'event') await trashEvent(localId, call).catch(refused);
  else if (kind === 'venue' || kind === 'organizer')
    await trashLinkedPost(kind, localId, call).catch(refused);
  else await removeTerm(localId, call).catch(refused);
}

/** The remote's fields with its texts as written there (never the compared copies, which lose paragraphs). */
function fieldsOf(remote: RemoteRecord): Record<string, unknown> {
  return { ...remote.fields, ...(remote.texts ? textFields(remote.kind, remote.texts) : {}) };
}

/** The remote's picture: the local one it came from, else the remote's by its address, else none. */
function imageOf(remote: RemoteRecord, localMediaOf: LocalMediaOf): number | string | null {
  const remoteImage = typeof remote.fields.image === 'number' ? remote.fields.image : null;
  return remoteImage === null ? null : (localMediaOf(remoteImage) ?? remote.imageUrl ?? null);
}

/** An event's remote version as the arguments of a local write (`current`: the local record it patches). */
function eventInputOf(
  remote: RemoteRecord,
  localIdOf: LocalIdOf,
  localMediaOf: LocalMediaOf,
  current?: StoredEvent,
): EventInput {
  const fields = fieldsOf(remote);
  const ids = (refKind: SyncKind, value: unknown) =>
    (Array.isArray(value) ? value : [])
      .map((id) => localIdOf(refKind, Number(id)))
      .filter((id): id is number => id !== null);
  const venue = Number(fields.venue) ? localIdOf('venue', Number(fields.venue)) : 0;
  return {
    status: text(fields.status) || current?.status || 'publish',
    start_date: text(fields.start_date),
    end_date: text(fields.end_date),
    ...(text(fields.timezone) || current ? { timezone: text(fields.timezone) || current!.timezone } : {}),
    all_day: flag(fields.all_day),
    ...objectOfRows(EVENT_FLAG_FIELDS, 'wire', (row) => flag(fields[row.wire])),
    ...objectOfRows(EVENT_TEXT_FIELDS, 'wire', (row) => text(fields[row.wire])),
    organizer: ids('organizer', fields.organizer),
    categories: ids('category', fields.categories),
    tags: ids('tag', fields.tags),
    ...(venue !== null ? { venue } : {}),
    image: imageOf(remote, localMediaOf),
    ...(current && current.website !== null ? { website: text(fields.website) } : {}),
  };
}

/**
 * An event's remote cost as write arguments, with the event's own currency when the remote tells it. From a
 * Calendar Desk: its cost as typed and its currency fields, exactly (the same record on both). From WordPress:
 * the cost and currency as the site stores them; but when only the formatting differs from the cost here,
 * none, so the event keeps its cost and its own currency (`current`: the local event).
 */
function costInputOf(remote: RemoteRecord, store: CalendarStore, current?: StoredEvent): EventInput {
  const cost = remote.texts?.cost;
  if (cost === undefined) return {};
  if (!remote.texts?.costAsTyped && current && sameCostButFormatting(cost, current, store)) return {};
  const currency = remote.texts?.currency;
  return {
    cost,
    ...(currency
      ? {
          currency_symbol: currency.symbol,
          currency_position: currency.position,
          currency_code: currency.code,
        }
      : {}),
  };
}

/**
 * Whether WordPress' cost text is the event's cost here but for its formatting: the same numbers and no word
 * of its own (`10` went there as `$10`; the plugin keeps `15€` as `15`, and may save `20€ / 10€ reduced` again
 * as `10 – 20`, its currency in fields of its own).
 */
function sameCostButFormatting(remote: string, current: StoredEvent, store: CalendarStore): boolean {
  const here = typedCost(current.cost);
  const { symbol } = eventCurrency(current, siteCurrency(store.settings));
  const words = (text: string) => text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const known = new Set([...words(here), ...words(symbol)]);
  const numbers = (text: string) => costDetailsValues([text]).join(' ');
  return numbers(remote) === numbers(here) && words(remote).every((word) => known.has(word));
}

/** The rule of a remote series' head, as write arguments (none from a remote without series). */
function seriesInputOf(remote: RemoteRecord): Pick<EventInput, 'recurrence'> {
  const lines = remote.fields.recurrence;
  return Array.isArray(lines) ? { recurrence: lines.map(String) } : {};
}

/** A venue's or organizer's remote version as write arguments (the slug and status stay local). */
function linkedPostInputOf(remote: RemoteRecord, localMediaOf: LocalMediaOf): VenueInput & OrganizerInput {
  const fields = fieldsOf(remote);
  return Object.fromEntries([
    ...Object.entries(fields).filter(([key]) => key !== 'slug' && key !== 'status' && key !== 'image'),
    ['image', imageOf(remote, localMediaOf)],
  ]);
}

/** A term's remote version as write arguments. The plugin answers names and descriptions with entities. */
function termInputOf(kind: SyncKind, remote: RemoteRecord, localIdOf: LocalIdOf): TermChanges {
  const fields = remote.fields;
  const parent =
    kind === 'category' && Number(fields.parent) ? localIdOf('category', Number(fields.parent)) : 0;
  const name = decodeHtmlEntities(toPlainText(text(fields.name)));
  return {
    ...(name ? { name } : {}),
    description: decodeHtmlEntities(toPlainText(text(fields.description))),
    ...(parent !== null ? { parent } : {}),
  };
}

/** Turns the calendar's refusals of a write into the record's problem, said for the sync's user. */
const refusedAs =
  (caller: Caller) =>
  (error: unknown): never => {
    if (error instanceof WriteRefused || error instanceof EventRuleError) throw pullRefused(error, caller);
    throw error;
  };

/** What a refused pull tells the user: what the calendar's rule said, and what to do about it. */
function pullRefused(error: WriteRefused | EventRuleError, caller: Caller): RecordProblem {
  if (error instanceof WriteRefused && error.code === 'rest_forbidden') {
    return new RecordProblem(
      'SYNC_PULL_NOT_ALLOWED',
      `Its version on the remote was not taken: ${caller.login} (${caller.role}), who started the sync, may ` +
        'not change it in this calendar. Sync as an editor or administrator, or keep the local version.',
    );
  }
  const rule = error instanceof EventRuleError ? `${error.field}: ${error.message}` : error.message;
  return new RecordProblem(
    'SYNC_PULL_REFUSED',
    `Its version on the remote was not taken, because this calendar does not accept it (${rule}). ` +
      'Correct it on the remote and sync again, or keep the local version.',
  );
}

/** A record's texts under the names of its fields (the title is an event's `title`, a venue's `venue`…). */
function textFields(kind: SyncKind, texts: RemoteTexts): Record<string, string> {
  return {
    [kind === 'event' ? 'title' : kind]: texts.title,
    description: texts.description,
    ...(texts.excerpt !== undefined ? { excerpt: texts.excerpt } : {}),
  };
}
