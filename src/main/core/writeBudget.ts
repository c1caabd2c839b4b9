import type { Settings } from '../store/schema';
import type { CalendarStore, Transaction } from '../store/store';
import type { MaybeCaller } from './capabilities';
import { WriteRefused, type WriteCall } from './writes';

/*
 * The write budget (issue 26): an account below editor (author, contributor) may add at most so many records
 * (events, venues, organizers, categories, tags, pictures) and so many occurrences of repeating events per hour,
 * the site settings saying how many; editors and administrators write without one. One contributor's script of
 * endless daily series could otherwise grow the calendar until it no longer starts.
 *
 * The counts live in memory, per store and user, over a sliding hour. That is enough: the budget bounds how fast
 * one account can grow the calendar, not what it may hold, and a restart (which forgets the counts) takes longer
 * than the writes it would let through again; the records themselves stay, as anything written does.
 */

export const DEFAULT_CREATES_PER_HOUR = 200;
export const DEFAULT_OCCURRENCES_PER_HOUR = 5000;

const HOUR_MS = 3_600_000;

/** What one write adds: new records, and new occurrences of repeating events. */
export interface WriteUse {
  creates: number;
  occurrences: number;
}

const MIB = 1024 * 1024;

/**
 * What a picture of `bytes` counts as: one new record per started MiB. Pictures may be 10 MiB each, so counted
 * as one record they would let an author write 2 GiB an hour; counted by size they weigh what records of the
 * same size do (an event's body is at most 1 MiB).
 */
export const pictureWeight = (bytes: number): number => Math.max(1, Math.ceil(bytes / MIB));

/** The hourly allowance of an account below editor, from the site settings. */
export function writeBudgetOf(settings: Settings): WriteUse {
  return {
    creates: settings.writeBudgetCreatesPerHour ?? DEFAULT_CREATES_PER_HOUR,
    occurrences: settings.writeBudgetOccurrencesPerHour ?? DEFAULT_OCCURRENCES_PER_HOUR,
  };
}

/** Whether the caller writes within a budget: every signed-in account below editor. */
export const hasWriteBudget = (caller: MaybeCaller): boolean =>
  caller !== null && caller.role !== 'administrator' && caller.role !== 'editor';

/** One write counted: when, and what it added. */
interface Spent extends WriteUse {
  at: number;
}

/** What each user spent in the last hour, per store (a test's servers share the process). */
const spentByStore = new WeakMap<CalendarStore, Map<number, Spent[]>>();

function spentOf(store: CalendarStore, userId: number, now: number): Spent[] {
  let byUser = spentByStore.get(store);
  if (!byUser) spentByStore.set(store, (byUser = new Map<number, Spent[]>()));
  const recent = (byUser.get(userId) ?? []).filter((spent) => spent.at > now - HOUR_MS);
  byUser.set(userId, recent);
  return recent;
}

/**
 * Seconds until `use` fits in `allowance` beside what was spent in the last hour (oldest first), or null when it
 * fits now. Infinity when it never fits (one write alone larger than the allowance).
 */
function waitFor(spent: Spent[], use: WriteUse, allowance: WriteUse, now: number): number | null {
  const fits = (used: WriteUse) =>
    used.creates + use.creates <= allowance.creates &&
    used.occurrences + use.occurrences <= allowance.occurrences;
  const used = spent.reduce(
    (sum, item) => ({ creates: sum.creates + item.creates, occurrences: sum.occurrences + item.occurrences }),
    { creates: 0, occurrences: 0 },
  );
  if (fits(used)) return null;
  if (!fits({ creates: 0, occurrences: 0 })) return Infinity;
  for (const item of spent) {
    used.creates -= item.creates;
    used.occurrences -= item.occurrences;
    if (fits(used)) return Math.max(1, Math.ceil((item.at + HOUR_MS - now) / 1000));
  }
  return Math.ceil(HOUR_MS / 1000);
}

/** A write over the caller's hourly budget: 429, with the seconds to wait in `Retry-After`. */
export class WriteBudgetExceeded extends WriteRefused {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'rest_write_budget_exceeded', message);
  }
}

function refusal(use: WriteUse, allowance: WriteUse, wait: number, picture: boolean): WriteBudgetExceeded {
  const what =
    use.occurrences > 0
      ? `${allowance.creates} new records and ${allowance.occurrences} events of repeating series`
      : `${allowance.creates} new records`;
  if (wait === Infinity && use.creates > allowance.creates && picture) {
    return new WriteBudgetExceeded(
      `A picture counts as one new record per started MiB: this one of ${use.creates} MiB counts as ` +
        `${use.creates}, more than the ${allowance.creates} an hour your account may add. Send a smaller ` +
        'picture, or ask an administrator to raise the limit in Settings.',
      HOUR_MS / 1000,
    );
  }
  if (wait === Infinity && use.creates > allowance.creates) {
    // One write adding several records: an event with new venue, organizers, categories and tags.
    return new WriteBudgetExceeded(
      `This change would add ${use.creates} new records at once (with its new venue, organizers, categories ` +
        `and tags), more than the ${allowance.creates} an hour your account may add. Choose existing ones ` +
        'instead, or ask an administrator to raise the limit in Settings.',
      HOUR_MS / 1000,
    );
  }
  if (wait === Infinity) {
    return new WriteBudgetExceeded(
      `This change would add ${use.occurrences} events of a repeating series at once, more than the ` +
        `${allowance.occurrences} an hour your account may add. Give the series an end or repeat it less ` +
        'often, or ask an administrator to raise the limit in Settings.',
      HOUR_MS / 1000,
    );
  }
  return new WriteBudgetExceeded(
    `Your account may add ${what} an hour${picture ? ' (a picture counts as one per started MiB)' : ''}, ` +
      `and has reached that limit. Nothing was changed: try again in ` +
      `${wait} seconds, or ask an administrator to raise the limit in Settings.`,
    wait,
  );
}

/** Refuses (429) a write of `use` the caller's budget has no room for now; nothing is counted. */
export function checkWriteBudget(call: WriteCall, use: WriteUse, picture = false): void {
  const { store, caller } = call;
  // A write that adds nothing (an edit) is never refused, even by a budget lowered below what was spent.
  if (!hasWriteBudget(caller) || (use.creates === 0 && use.occurrences === 0)) return;
  const now = call.now.getTime();
  const allowance = writeBudgetOf(store.settings);
  const wait = waitFor(spentOf(store, caller!.userId, now), use, allowance, now);
  if (wait !== null) throw refusal(use, allowance, wait, picture);
}

/** Counts `use` against the caller's budget, or refuses it (429) when it does not fit. */
export function spendWriteBudget(call: WriteCall, use: WriteUse, picture = false): void {
  checkWriteBudget(call, use, picture);
  if (!hasWriteBudget(call.caller) || (use.creates === 0 && use.occurrences === 0)) return;
  spentOf(call.store, call.caller!.userId, call.now.getTime()).push({ at: call.now.getTime(), ...use });
}

/**
 * Runs `change` as one store change within the caller's budget: refused at once (429) when the budget has no
 * room for `least` (one record unless said otherwise), else the records the change adds are counted as it makes
 * them and, when they do not fit, the change is refused and nothing of it is kept (the store change throws).
 */
export async function withinWriteBudget<T>(
  call: WriteCall,
  change: (tx: Transaction) => T,
  least: WriteUse = { creates: 1, occurrences: 0 },
  /** What a new picture counts as ({@link pictureWeight}); one record unless said. */
  pictureCreates = 1,
): Promise<T> {
  const { store } = call;
  if (!hasWriteBudget(call.caller)) return store.mutate(change);
  const picture = pictureCreates > 1;
  // What the change adds at least, refused before any work (a series' dates take a while to compute).
  checkWriteBudget(call, least, picture);
  return store.mutate((tx) => {
    const use: WriteUse = { creates: 0, occurrences: 0 };
    const counted: Transaction = {
      ...tx,
      putEvent(event) {
        if (!store.events.get(event.id)) {
          if (event.parentId !== 0 && event.recurrenceId !== undefined) use.occurrences++;
          else use.creates++;
        }
        tx.putEvent(event);
      },
      putVenue(venue) {
        if (!store.venues.get(venue.id)) use.creates++;
        tx.putVenue(venue);
      },
      putOrganizer(organizer) {
        if (!store.organizers.get(organizer.id)) use.creates++;
        tx.putOrganizer(organizer);
      },
      putTerm(term) {
        if (!store.terms.get(term.id)) use.creates++;
        tx.putTerm(term);
      },
      putMedia(media) {
        if (!store.media.get(media.id)) use.creates += pictureCreates;
        tx.putMedia(media);
      },
    };
    const result = change(counted);
    spendWriteBudget(call, use, picture);
    return result;
  });
}
