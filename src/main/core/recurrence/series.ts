import { setImmediate as nextTurn } from 'node:timers/promises';
import { DateTime } from 'luxon';
import type { CalendarStore } from '../../store/store';
import type { StoredEvent } from '../../store/schema';
import { canChangePost, type MaybeCaller } from '../capabilities';
import { canonicalSqlMs, formatSql, toUtcSql } from '../dates/sqlDates';
import { toLuxonZone } from '../dates/zones';
import { nowUtc, postSlug, trashedSlug, untrashedSlug } from '../posts';
import { givenUid, newUid } from '../uids';
import { refuseUnless } from '../writes';
import { spendWriteBudget, WriteBudgetExceeded } from '../writeBudget';
import {
  applyEventInput,
  EventRuleError,
  updateEvent,
  type EventInput,
  type EventWriteContext,
} from '../eventRecord';
import { expandSeries, type SeriesPattern } from './expand';
import { MAX_OCCURRENCES } from './lines';
import {
  exdateLine,
  linesEndingBefore,
  linesFrom,
  normalised,
  ruleCount,
  shiftLocal,
  wallMs,
} from './ruleEdits';

/*
 * A series (issue 13, "The recurrence model" of HELPERS.md): its head is its first event and carries the RFC 5545
 * lines (`recurrence`); every occurrence is an event of its own whose `parentId` is the head's id, keyed by its
 * original start (`recurrenceId`). Every function here is a step inside ONE store change: a series of 730
 * occurrences is one journal batch, one durable write.
 */

import type { SeriesScope } from '../eventRecord';

/** How far ahead rules without an end are materialised when the site setting says nothing. */
export const DEFAULT_HORIZON_MONTHS = 24;

/**
 * The most occurrences one store change makes for one series (issue 26): a longer horizon or a denser rule is
 * made this many at a time, the series' `horizonLocal` saying where it stopped, and the extension (at start,
 * every few hours, after a change of the horizon) goes on from there as it does when time passes.
 */
export const MATERIALISED_AT_ONCE = 1000;

/** The stored fields a series edit never copies from one event to another: identity, place in the series, dates. */
const OWN_FIELDS = new Set<keyof StoredEvent>([
  'id',
  'uid',
  'icsUid',
  'slug',
  'revision',
  'modifiedUtc',
  'parentId',
  'recurrence',
  'recurrenceId',
  'horizonLocal',
  'override',
  'startLocal',
  'endLocal',
  'startUtc',
  'endUtc',
]);

/** True for an event that belongs to a series (its head or an occurrence). */
export function inSeries(event: StoredEvent): boolean {
  return event.recurrenceId !== undefined;
}

/** The head of the series `event` belongs to (itself for the head); undefined for a single event. */
export function seriesHeadOf(store: CalendarStore, event: StoredEvent): StoredEvent | undefined {
  if (!inSeries(event)) return undefined;
  if (event.parentId === 0) return event;
  const head = store.events.get(event.parentId);
  return head && head.recurrence ? head : undefined;
}

/** The occurrences of a series (trashed ones included), in the order of their original starts. */
export function seriesOccurrences(store: CalendarStore, head: StoredEvent): StoredEvent[] {
  const ids = store.eventIndex.byParent.get(head.id) ?? new Set<number>();
  return [...ids]
    .map((id) => store.events.get(id)!)
    .filter(inSeries)
    .sort((a, b) =>
      a.recurrenceId! < b.recurrenceId! ? -1 : a.recurrenceId! > b.recurrenceId! ? 1 : a.id - b.id,
    );
}

/** The horizon as the series' wall clock: now plus the site's `recurrenceHorizonMonths`. */
export function horizonOf(store: CalendarStore, now: Date, zone: string): string {
  const months = store.settings.recurrenceHorizonMonths ?? DEFAULT_HORIZON_MONTHS;
  return formatSql(DateTime.fromJSDate(now).setZone(toLuxonZone(zone)).plus({ months }));
}

/** The original starts of a series' events up to the horizon, and that horizon when the series goes on past it. */
interface SeriesDates {
  dates: readonly string[];
  openUntil: string | undefined;
}

/**
 * Whether rules may give dates after `horizon` (then the series is extended as time passes): a rule without an
 * end, an UNTIL after it, or a COUNT not used up yet (EXDATEs counted as used).
 */
function goesOnAfter(lines: string[], dates: readonly string[], horizon: string): boolean {
  const removed = lines
    .filter((line) => /^EXDATE/i.test(line))
    .reduce((sum, line) => sum + line.split(',').length, 0);
  return lines.some((line) => {
    if (!/^RRULE:/i.test(line)) return false;
    const count = ruleCount(line);
    const until = /[:;]UNTIL=(\d{8})/i.exec(line)?.[1];
    if (until !== undefined) return until > horizon.slice(0, 10).replaceAll('-', '');
    return count === undefined || dates.length + removed < count;
  });
}

/** The original starts of a series' events up to the horizon (at least its first, whenever it is). */
function seriesDates(store: CalendarStore, now: Date, head: StoredEvent, patternStart: string): SeriesDates {
  // The rule arithmetic reads wall clocks of years 1000 to 9998 (a series must be able to reach the next year).
  if (canonicalSqlMs(patternStart) === null) {
    throw new EventRuleError(
      'start_date',
      `A repeating event must start between 1000-01-01 and 9998-12-31; this one starts ${patternStart}. ` +
        'Pick a start date in that range, or leave out the repeat rules.',
    );
  }
  const horizon = horizonOf(store, now, head.timezone);
  const lines = head.recurrence ?? [];
  const dates = datesOfPattern(
    { startLocal: patternStart, timezone: head.timezone, allDay: head.allDay, lines },
    horizon < patternStart ? patternStart : horizon,
  );
  if (dates.length === 0) {
    throw new EventRuleError('recurrence', 'These repeat rules leave no date at all: every date is removed.');
  }
  // The expansion stops at MAX_OCCURRENCES: reaching it means the rules make too many events for the horizon.
  if (dates.length >= MAX_OCCURRENCES) {
    throw new EventRuleError(
      'recurrence',
      `These repeat rules make ${MAX_OCCURRENCES} events or more before ${horizon.slice(0, 10)}: ` +
        'give them an end (a number of times or a last date) or repeat less often.',
    );
  }
  return { dates, openUntil: goesOnAfter(lines, dates, horizon) ? horizon : undefined };
}

/**
 * {@link expandSeries} of the last few patterns asked for, kept: a large import makes a series a slice at a
 * time, and each slice asks for the same series' dates again (issue 26: expanding 700 dates anew in every
 * slice held the server ~50 ms each time). The dates are a pure function of the pattern and the horizon.
 */
function datesOfPattern(pattern: SeriesPattern, untilLocal: string): readonly string[] {
  const key = JSON.stringify([
    pattern.startLocal,
    pattern.timezone,
    pattern.allDay,
    pattern.lines,
    untilLocal,
  ]);
  const known = recentDates.get(key);
  if (known) return known;
  const dates = Object.freeze(expandSeries(pattern, { untilLocal }));
  if (recentDates.size >= RECENT_PATTERNS) recentDates.delete(recentDates.keys().next().value!);
  recentDates.set(key, dates);
  return dates;
}

const RECENT_PATTERNS = 8;
const recentDates = new Map<string, readonly string[]>();

/**
 * Whether `local` is an original start the series of `head` gives that is not made yet (after where it is made
 * up to, before the horizon): a preview that stopped making a series (`occurrencesUntil`) still knows its dates.
 */
export function isUnmadeSeriesDate(
  store: CalendarStore,
  now: Date,
  head: StoredEvent,
  local: string,
): boolean {
  if (!head.horizonLocal || local <= head.horizonLocal) return false;
  return seriesDates(store, now, head, head.recurrenceId!).dates.includes(local);
}

/** Start, end and their UTC twins of an event of the series starting at `local` and lasting `durationMs`. */
function timesAt(local: string, durationMs: number, zone: string) {
  const endLocal = shiftLocal(local, durationMs);
  return {
    startLocal: local,
    endLocal,
    startUtc: toUtcSql(local, zone),
    endUtc: toUtcSql(endLocal, zone),
  };
}

const durationOf = (event: StoredEvent) => wallMs(event.endLocal) - wallMs(event.startLocal);

/** `event` as changed by this write: a new revision, now. */
function touched(event: StoredEvent, now: Date): StoredEvent {
  return { ...event, modifiedUtc: nowUtc(now), revision: event.revision + 1 };
}

/** A copy of `event` without the optional series fields set to `undefined` (absent in the data file). */
function tidy(event: StoredEvent): StoredEvent {
  if (!TIDIED.some((key) => key in event && event[key] === undefined)) return event;
  // Copied without them rather than deleted from a copy: `delete` turns an object into a slow dictionary.
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) {
    if (value !== undefined || !TIDIED.includes(key as (typeof TIDIED)[number])) copy[key] = value;
  }
  return copy as unknown as StoredEvent;
}

const TIDIED = ['recurrence', 'recurrenceId', 'horizonLocal', 'override', 'icsUid'] as const;

function trashed(store: CalendarStore, event: StoredEvent, now: Date): StoredEvent {
  return touched({ ...event, status: 'trash', slug: trashedSlug(store, event) }, now);
}

/**
 * The transaction of a series write for `caller`: every event it changes must be one the caller may change
 * (`action`), else the whole change is refused (403) and, the store change throwing, nothing is kept.
 */
export function guardedTransaction(
  context: EventWriteContext,
  action: 'edit' | 'delete',
  caller: MaybeCaller = context.caller,
): EventWriteContext {
  const { tx, store } = context;
  const putEvent = (event: StoredEvent) => {
    const previous = store.events.get(event.id);
    if (previous) refuseUnless(canChangePost(caller, previous, action), caller);
    tx.putEvent(tidy(event));
  };
  return { ...context, tx: { ...tx, putEvent } };
}

/** A new occurrence of the series of `head`, on `local`, with the fields of `template` (the series' current ones). */
function newOccurrence(
  head: StoredEvent,
  template: StoredEvent,
  local: string,
  durationMs: number,
  context: EventWriteContext,
): StoredEvent {
  const id = context.tx.nextPostId();
  return tidy({
    ...template,
    ...timesAt(local, durationMs, template.timezone),
    id,
    uid: newUid(),
    icsUid: undefined,
    parentId: head.id,
    recurrence: undefined,
    recurrenceId: local,
    horizonLocal: undefined,
    override: undefined,
    status: template.status === 'trash' ? head.status : template.status,
    slug: postSlug(context.store, 'event', template.title, id, `event-${id}`),
    dateUtc: head.dateUtc,
    modifiedUtc: nowUtc(context.now),
    revision: 1,
  });
}

/** What one store change made of a series: how many events, and the last one's date if it stopped early. */
interface Made {
  made: number;
  /** Set when more dates were due than {@link MATERIALISED_AT_ONCE}: the series is made up to here. */
  stoppedAt?: string;
}

/**
 * Creates the occurrences of `dates` the series of `head` (stored) lacks, from its latest event that follows
 * the series (not changed on its own), at most MATERIALISED_AT_ONCE of them (fewer once the context's
 * `seriesDeadline` has passed). Existing events are left as they are.
 */
function createMissing(head: StoredEvent, dates: readonly string[], context: EventWriteContext): Made {
  const occurrences = seriesOccurrences(context.store, head);
  const taken = new Set([head.recurrenceId!, ...occurrences.map((event) => event.recurrenceId!)]);
  const followers = [head, ...occurrences].filter((event) => !event.override && event.status !== 'trash');
  const template = followers.at(-1) ?? head;
  let made = 0;
  let last = head.recurrenceId!;
  const deadline = context.seriesDeadline ?? context.occurrencesUntil;
  for (const local of dates) {
    if (taken.has(local)) continue;
    if (made === MATERIALISED_AT_ONCE) return { made, stoppedAt: last };
    if (made > 0 && deadline !== undefined && performance.now() > deadline) return { made, stoppedAt: last };
    context.tx.putEvent(newOccurrence(head, template, local, durationOf(template), context));
    made++;
    last = local;
  }
  return { made };
}

/**
 * Extends the series of `head` (stored) to the horizon as of now, when it goes on past the one it was made up
 * to. Returns how many occurrences were created.
 */
export function materialiseSeries(head: StoredEvent, context: EventWriteContext): number {
  const { store, now } = context;
  if (
    !head.horizonLocal ||
    head.horizonLocal.slice(0, 10) >= horizonOf(store, now, head.timezone).slice(0, 10)
  ) {
    return 0;
  }
  const { dates, openUntil } = seriesDates(store, now, head, head.recurrenceId!);
  const { made, stoppedAt } = createMissing(head, dates, context);
  // Where the series was made up to is bookkeeping, not a change of the event: no new revision.
  context.tx.putEvent({ ...head, horizonLocal: stoppedAt ?? openUntil });
  return made;
}

/**
 * Makes the stored single event `event` the head of a series with `lines` and creates its occurrences. When
 * the lines remove its own start, it moves to the series' first date.
 */
export function startSeries(event: StoredEvent, lines: string[], context: EventWriteContext): StoredEvent {
  const draft = { ...event, recurrence: lines };
  const { dates, openUntil } = seriesDates(context.store, context.now, draft, event.startLocal);
  const head = tidy({
    ...draft,
    ...timesAt(dates[0]!, durationOf(event), event.timezone),
    recurrenceId: dates[0],
    horizonLocal: openUntil,
    override: undefined,
  });
  context.tx.putEvent(head);
  const { stoppedAt } = createMissing(head, dates, context);
  if (stoppedAt === undefined) return head;
  const madeUpTo = { ...head, horizonLocal: stoppedAt };
  context.tx.putEvent(madeUpTo);
  return madeUpTo;
}

/** The stored fields `after` changed on `before`, that a series edit copies to the events following it. */
function changedFields(before: StoredEvent, after: StoredEvent): Partial<StoredEvent> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof StoredEvent)[]) {
    if (OWN_FIELDS.has(key)) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed[key] = after[key];
  }
  return changed;
}

/**
 * Scope `all` from `target` (an event of the series of `head`): the changed fields go to every event of the
 * series not changed on its own (and to `target`); a new start time or date moves them all by as much; new
 * `recurrence` lines (or a move) re-derive the dates, keeping the events whose original date still exists.
 */
function* changingWholeSeries(
  head: StoredEvent,
  target: StoredEvent,
  input: EventInput,
  context: EventWriteContext,
): SeriesWrite<StoredEvent> {
  const { store, now } = context;
  const after = applyEventInput(target, { ...input, recurrence: undefined, scope: undefined }, context);
  const fields = changedFields(target, after);
  const delta = wallMs(after.startLocal) - wallMs(target.startLocal);
  const duration = durationOf(after);
  const lines = input.recurrence ?? head.recurrence ?? [];
  const rekey = (local: string) => shiftLocal(local, delta);
  if (lines.length === 0) return endSeries(head, target, after, fields, context);

  // The edited event takes all of `after` (its own slug too); the others take the changed fields.
  const edited = (event: StoredEvent) => (event.id === target.id ? after : event);
  // The head follows (the series lives on it) unless it was changed on its own and is not what was edited.
  const headFollows = !head.override || head.id === target.id;
  const newHead: StoredEvent = {
    ...edited(head),
    ...(headFollows ? fields : { timezone: after.timezone }),
    allDay: after.allDay,
    recurrence: lines,
  };
  const { dates, openUntil } = seriesDates(store, now, newHead, rekey(head.recurrenceId!));
  const wanted = new Set(dates.slice(1));
  const headTimes = headFollows
    ? timesAt(dates[0]!, duration, newHead.timezone)
    : timesAt(head.startLocal, durationOf(head), newHead.timezone);
  const headAfter = touched(
    { ...newHead, ...headTimes, recurrenceId: dates[0], horizonLocal: openUntil },
    now,
  );
  // Only a change that keeps every date (new titles, texts, places…) pauses between two events past the
  // context's deadline (a large import, issue 26): each event then takes the same fields whatever happened
  // between two store changes, and the head is written last, so that a series left half-changed (a crash)
  // still differs from the file at its head and is finished by the same change made again.
  const pausing =
    context.seriesDeadline !== undefined &&
    delta === 0 &&
    newHead.timezone === head.timezone &&
    newHead.allDay === head.allDay &&
    JSON.stringify(lines) === JSON.stringify(head.recurrence ?? []);
  if (!pausing) context.tx.putEvent(headAfter);

  const kept = new Set<string>([dates[0]!]);
  for (const listed of seriesOccurrences(store, head)) {
    if (pausing && performance.now() > context.seriesDeadline!) context = yield;
    // As it is now: an edit made between two store changes is kept (it is changed from there).
    const stored = pausing ? store.events.get(listed.id) : listed;
    if (!stored) continue;
    const { tx } = context;
    const key = rekey(stored.recurrenceId!);
    if (stored.status === 'trash' && (!wanted.has(key) || kept.has(key))) {
      kept.add(key);
      continue;
    }
    // In the trash but a date the rules give again (a rule shortened, then lengthened back): the event comes
    // back, with what it had, rather than a new one beside it. A date removed on its own is an EXDATE: not given.
    const occurrence =
      stored.status === 'trash'
        ? { ...stored, status: newHead.status, slug: untrashedSlug(store, stored) }
        : stored;
    if (!wanted.has(key) || kept.has(key)) {
      tx.putEvent(trashed(store, occurrence, now));
      continue;
    }
    kept.add(key);
    if (occurrence.id === target.id && occurrence.override) {
      tx.putEvent(touched({ ...after, recurrenceId: key }, now));
    } else if (occurrence.override) {
      if (occurrence !== stored || key !== occurrence.recurrenceId)
        tx.putEvent(touched({ ...occurrence, recurrenceId: key }, now));
    } else {
      const next = { ...edited(occurrence), ...fields, recurrenceId: key };
      const moved = { ...next, ...timesAt(key, duration, next.timezone) };
      if (JSON.stringify(moved) !== JSON.stringify(stored)) tx.putEvent(touched(moved, now));
    }
  }
  const { tx } = context;
  if (pausing) {
    // Edited by someone else between two store changes: their edit stays, with this change's fields on top.
    const headNow = store.events.get(head.id) ?? head;
    tx.putEvent(
      headNow.revision === head.revision
        ? headAfter
        : touched({ ...headNow, ...fields, recurrence: lines, horizonLocal: openUntil }, now),
    );
  }
  const latest = store.events.get(head.id)!;
  let made = 0;
  let last = dates[0];
  for (const local of dates.slice(1)) {
    if (kept.has(local)) continue;
    if (made === MATERIALISED_AT_ONCE) {
      // The rest is made by the extension, from the last event made on (see MATERIALISED_AT_ONCE).
      tx.putEvent({ ...store.events.get(head.id)!, horizonLocal: last });
      break;
    }
    tx.putEvent(newOccurrence(latest, latest, local, duration, context));
    made++;
    last = local;
  }
  return store.events.get(target.id)!;
}

/** `recurrence: []` on a series: the head stays as a single event with the changes, its occurrences are trashed. */
function endSeries(
  head: StoredEvent,
  target: StoredEvent,
  after: StoredEvent,
  fields: Partial<StoredEvent>,
  context: EventWriteContext,
): StoredEvent {
  const { store, tx, now } = context;
  for (const occurrence of seriesOccurrences(store, head)) {
    if (occurrence.status !== 'trash') tx.putEvent(trashed(store, occurrence, now));
  }
  const single = head.id === target.id ? after : { ...head, ...fields };
  tx.putEvent(
    touched(
      {
        ...single,
        recurrence: undefined,
        recurrenceId: undefined,
        horizonLocal: undefined,
        override: undefined,
      },
      now,
    ),
  );
  return store.events.get(target.id)!;
}

/** How many events of the rule `ruleLine` (alone) the series of `head` has before `local`. */
function ruleDatesBefore(head: StoredEvent, ruleLine: string, local: string): number {
  const dates = expandSeries(
    { startLocal: head.recurrenceId!, timezone: head.timezone, allDay: head.allDay, lines: [ruleLine] },
    { untilLocal: shiftLocal(local, -1000) },
  );
  return dates.filter((date) => date < local).length;
}

/**
 * Splits the series of `head` at its occurrence `from`: the old series ends before it, `from` becomes the head
 * (keeping its own uid: the new series' uid) of a series of the rest, whose events move to it.
 */
function splitSeries(head: StoredEvent, from: StoredEvent, context: EventWriteContext): StoredEvent {
  const { store, tx, now } = context;
  const at = from.recurrenceId!;
  const lines = head.recurrence ?? [];
  const restLines = linesFrom(lines, at, head.timezone, (rule) => ruleDatesBefore(head, rule, at));
  const later = seriesOccurrences(store, head).filter((event) => event.recurrenceId! > at);
  tx.putEvent(
    touched(
      {
        ...head,
        recurrence: linesEndingBefore(lines, at, head.timezone, head.allDay),
        horizonLocal: undefined,
      },
      now,
    ),
  );
  const newHead = touched({ ...from, parentId: 0, recurrence: restLines, override: undefined }, now);
  tx.putEvent(newHead);
  for (const event of later) tx.putEvent(touched({ ...event, parentId: newHead.id }, now));
  return store.events.get(newHead.id)!;
}

/** Updates `current` (an event of a series or a single one) with `input`, for `scope`; returns it as stored. */
export function changeInSeries(
  current: StoredEvent,
  input: EventInput,
  scope: SeriesScope,
  context: EventWriteContext,
): StoredEvent {
  return drained(changingInSeries(current, input, scope, context), context);
}

/**
 * {@link changeInSeries} that may pause past the context's `seriesDeadline` (a large import, issue 26): it
 * yields, and goes on with the context of the next store change given back.
 */
export function* changingInSeries(
  current: StoredEvent,
  input: EventInput,
  scope: SeriesScope,
  context: EventWriteContext,
): SeriesWrite<StoredEvent> {
  const { store } = context;
  const head = seriesHeadOf(store, current);
  const plain = { ...input, recurrence: undefined, scope: undefined };
  if (!head) {
    const updated = updateEvent(current, plain, context);
    return input.recurrence?.length ? startSeries(updated, input.recurrence, context) : updated;
  }
  if (scope === 'this' && input.recurrence !== undefined) {
    // The rule is the series': sent on its head it changes the series; on one occurrence it needs a scope.
    if (current.id !== head.id) {
      throw new EventRuleError(
        'scope',
        'The repeat rule belongs to the whole series: send scope "all", or "following" to change it from this event on.',
      );
    }
    scope = 'all';
  }
  if (scope === 'this') {
    return updateEvent({ ...current, override: true }, plain, context);
  }
  if (scope === 'following' && current.id !== head.id) {
    const newHead = splitSeries(head, current, context);
    return drained(changingWholeSeries(newHead, newHead, input, context), context);
  }
  return yield* changingWholeSeries(head, current, input, context);
}

/**
 * A series write that may pause between two events once its context's `seriesDeadline` has passed: it yields,
 * and is given the context of the next store change to go on in.
 */
export type SeriesWrite<T> = Generator<void, T, EventWriteContext>;

/**
 * Runs the series write `start` makes, guarded for `action` (see guardedTransaction), inside a write that
 * pauses itself (an import's row): at each pause of the series write it yields for the next store change and
 * goes on with that change's context, guarded again. Answers the write's result and the context it ended in.
 */
export function* guardedSeriesWrite<T>(
  context: EventWriteContext,
  action: 'edit' | 'delete',
  start: (guarded: EventWriteContext) => SeriesWrite<T>,
): Generator<void, { value: T; context: EventWriteContext }, EventWriteContext> {
  let guarded = guardedTransaction(context, action);
  const write = start(guarded);
  for (let step = write.next(guarded); ; step = write.next(guarded)) {
    if (step.done) return { value: step.value, context };
    context = yield;
    guarded = guardedTransaction(context, action);
  }
}

/** A series write made whole in `context`'s store change (a context without a deadline never pauses). */
function drained<T>(write: SeriesWrite<T>, context: EventWriteContext): T {
  for (;;) {
    const step = write.next(context);
    if (step.done) return step.value;
  }
}

/** Moves `current` (an event of a series or a single one) and, by `scope`, more of its series to the trash. */
export function trashInSeries(
  current: StoredEvent,
  scope: SeriesScope,
  context: EventWriteContext,
): StoredEvent {
  return drained(trashingInSeries(current, scope, context), context);
}

/**
 * {@link trashInSeries} that may pause past the context's `seriesDeadline` when a whole series goes (a refresh
 * of an import address, issue 26): the head goes last, so a series left half-trashed (a crash) is still seen
 * live at its head and trashed again whole.
 */
export function* trashingInSeries(
  current: StoredEvent,
  scope: SeriesScope,
  context: EventWriteContext,
): SeriesWrite<StoredEvent> {
  const { store, now } = context;
  const { tx } = context;
  const head = seriesHeadOf(store, current);
  if (!head) {
    tx.putEvent(trashed(store, current, now));
    return store.events.get(current.id)!;
  }
  const at = current.recurrenceId!;
  const lines = head.recurrence ?? [];
  const occurrences = seriesOccurrences(store, head);
  if (scope === 'all' || (scope === 'following' && current.id === head.id)) {
    const deadline = context.seriesDeadline;
    for (const listed of deadline === undefined ? [head, ...occurrences] : [...occurrences, head]) {
      if (deadline !== undefined && performance.now() > deadline) context = yield;
      const event = store.events.get(listed.id); // as it is now (an edit between two store changes)
      if (event && event.status !== 'trash') context.tx.putEvent(trashed(store, event, now));
    }
  } else if (scope === 'following') {
    tx.putEvent(
      touched(
        {
          ...head,
          recurrence: linesEndingBefore(lines, at, head.timezone, head.allDay),
          horizonLocal: undefined,
        },
        now,
      ),
    );
    for (const event of occurrences) {
      if (event.recurrenceId! >= at && event.status !== 'trash') tx.putEvent(trashed(store, event, now));
    }
  } else if (current.id !== head.id) {
    tx.putEvent(
      touched(
        { ...head, recurrence: normalised([...lines, exdateLine(at, head.timezone, head.allDay)]) },
        now,
      ),
    );
    tx.putEvent(trashed(store, current, now));
  } else {
    trashHead(head, occurrences, context);
  }
  return store.events.get(current.id)!;
}

/**
 * Deleting the head alone: its next occurrence becomes the head of the rest (their `post_parent`), restarting
 * the rule there, and takes the series' uid (the trashed first event takes the occurrence's), so that whoever
 * knows the series by its uid still finds it.
 */
function trashHead(head: StoredEvent, occurrences: StoredEvent[], context: EventWriteContext): void {
  const { store, tx, now } = context;
  const next = occurrences.find((event) => event.status !== 'trash');
  if (!next) {
    tx.putEvent(trashed(store, head, now));
    return;
  }
  const at = next.recurrenceId!;
  const lines = head.recurrence ?? [];
  const restLines = linesFrom(lines, at, head.timezone, (rule) => ruleDatesBefore(head, rule, at));
  const newHead = touched(
    {
      ...next,
      uid: head.uid,
      icsUid: head.icsUid,
      parentId: 0,
      recurrence: restLines,
      horizonLocal: head.horizonLocal,
    },
    now,
  );
  // The uids change hands: the old head takes the occurrence's first, so no two events share one meanwhile.
  tx.putEvent(
    trashed(
      store,
      {
        ...head,
        uid: next.uid,
        icsUid: next.icsUid,
        parentId: next.id,
        recurrence: undefined,
        horizonLocal: undefined,
      },
      now,
    ),
  );
  tx.putEvent(newHead);
  for (const event of occurrences) {
    if (event.id !== next.id) tx.putEvent(touched({ ...event, parentId: next.id }, now));
  }
}

/**
 * Occurrences take the identity of their twins in the same series on another Calendar Desk (two-way sync: the
 * series was made there from its head and here from the same rules, each calendar giving its occurrences their
 * own uids): from then on each is the same event everywhere. An administrator's sync only; a uid another event
 * has is not taken, and a slug only when free. Not an edit (no new revision). One store change for the series.
 */
export async function takeOccurrenceIdentities(
  store: CalendarStore,
  twins: { id: number; uid: string; slug: string }[],
  caller: MaybeCaller,
): Promise<void> {
  const changes = twins.flatMap((twin) => {
    const event = store.events.get(twin.id);
    if (!event || event.uid === twin.uid.toLowerCase()) return [];
    const uid = givenUid(twin.uid, caller, store.events.values());
    return uid ? [{ event, uid, slug: twin.slug }] : [];
  });
  if (changes.length === 0) return;
  await store.mutate((tx) => {
    for (const { event, uid, slug } of changes) {
      const free = slug !== '' && postSlug(store, 'event', slug, event.id, event.slug) === slug;
      tx.putEvent(tidy({ ...event, uid, ...(free ? { slug } : {}) }));
    }
  });
}

/**
 * Extends every series that goes on past the horizon it was made up to, to the horizon as of `clock()` (time
 * passed, or the horizon setting grew). One store change per series, the event loop free between them (an
 * expansion takes milliseconds; a calendar may hold hundreds of series). Returns how many events were made.
 */
export async function extendAllSeries(store: CalendarStore, clock: () => Date): Promise<number> {
  const heads = [...store.events.values()].filter(
    (event) => event.parentId === 0 && event.horizonLocal !== undefined && event.status !== 'trash',
  );
  let made = 0;
  for (const { id } of heads) {
    await nextTurn();
    const head = store.events.get(id);
    if (store.readOnly || !head?.horizonLocal || head.parentId !== 0) continue;
    const now = clock();
    // The events made for an author or contributor count in their hourly budget, as if they made them: else a
    // series made 1,000 at a time would grow past it on its own. Past it, the series waits for a later run.
    const author = store.users.get(head.authorId);
    const budget = author
      ? { store, now, caller: { userId: author.id, login: author.login, role: author.role } }
      : null;
    made += await store
      .mutate((tx) => {
        const context: EventWriteContext = { tx, store, caller: null, now, language: head.language };
        try {
          const count = materialiseSeries(head, context);
          if (budget) spendWriteBudget(budget, { creates: 0, occurrences: count });
          return count;
        } catch (error) {
          // A series whose rules became too many for the horizon keeps the events it has.
          if (error instanceof EventRuleError) return 0;
          throw error;
        }
      })
      .catch((error: unknown) => {
        if (error instanceof WriteBudgetExceeded) return 0;
        throw error;
      });
  }
  return made;
}
