import type { CalendarStore, Transaction } from '../store/store';
import type { StoredEvent, StoredOrganizer, StoredVenue } from '../store/schema';
import type { EventWriteContext } from '../core/eventRecord';
import { writtenRecord, type Tracked, type WrittenRecord } from './importHistory';

/*
 * Re-importing a file must change nothing that the file does not change (issue 15 item 3): the event writes
 * an import makes bump revisions and modification times even when they put a record back as it was. This
 * watches the records an import writes, so that it can tell which ones it really changed and give the others
 * back their stored version (same revision, same time): an import that changes nothing writes nothing.
 */

type Kind = 'events' | 'venues' | 'organizers';

/** The bookkeeping of a write, which does not make a record different. */
const BOOKKEEPING = new Set(['revision', 'modifiedUtc']);

/** Equal records, apart from their revision and modification time (absent and undefined keys alike). */
function sameRecord(a: Tracked, b: Tracked): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (BOOKKEEPING.has(key)) continue;
    const left = (a as unknown as Record<string, unknown>)[key];
    const right = (b as unknown as Record<string, unknown>)[key];
    if (JSON.stringify(left) !== JSON.stringify(right)) return false;
  }
  return true;
}

/** Thrown to take back an import that changed nothing: no store write at all. */
export class NothingChanged extends Error {}

export class ImportChanges {
  /** Each record as it was before the import first wrote it (undefined: new), by `kind:id`. */
  private readonly originals = new Map<string, { kind: Kind; before: Tracked | undefined }>();
  private touched = new Set<string>();
  /** The records written since the last {@link endSlice} (an import applied in slices). */
  private sliceTouched = new Set<string>();
  /** What each slice's records became, as the slice left them (see {@link endSlice}), by `kind:id`. */
  private readonly sliced = new Map<string, WrittenRecord>();

  constructor(private readonly store: CalendarStore) {}

  /** `context` with a transaction that notes the first version of every event, venue and organizer it writes. */
  watch(context: EventWriteContext): EventWriteContext {
    const { tx } = context;
    const note = (kind: Kind, record: Tracked) => {
      const key = `${kind}:${record.id}`;
      if (!this.originals.has(key))
        this.originals.set(key, { kind, before: this.store[kind].get(record.id) });
      this.touched.add(key);
      this.sliceTouched.add(key);
    };
    const watched: Transaction = {
      ...tx,
      putEvent: (event) => (note('events', event), tx.putEvent(event)),
      putVenue: (venue) => (note('venues', venue), tx.putVenue(venue)),
      putOrganizer: (organizer) => (note('organizers', organizer), tx.putOrganizer(organizer)),
    };
    return { ...context, tx: watched };
  }

  /** Starts a new entry of the file: {@link endEntry} answers the records written since. */
  startEntry(): void {
    this.touched = new Set();
  }

  /** The records written since {@link startEntry} (a new entry starts), for {@link changedAmong}. */
  endEntry(): Set<string> {
    const touched = this.touched;
    this.touched = new Set();
    return touched;
  }

  /** True when some of the records of an entry is now different from before the import. */
  changedAmong(entry: Set<string>): boolean {
    return [...entry].some((key) => this.differs(key));
  }

  /** The venues and organizers an entry created (an event row naming new ones). */
  createdLinkedAmong(entry: Set<string>): Array<StoredVenue | StoredOrganizer> {
    return [...entry]
      .filter((key) => !key.startsWith('events:') && !this.originals.get(key)!.before)
      .map((key) => this.current(key) as StoredVenue | StoredOrganizer)
      .filter(Boolean);
  }

  private differs(key: string): boolean {
    const { before } = this.originals.get(key)!;
    const now = this.current(key);
    return !before || !now || !sameRecord(before, now);
  }

  private current(key: string): Tracked | undefined {
    const { kind } = this.originals.get(key)!;
    return this.store[kind].get(Number(key.slice(kind.length + 1)));
  }

  /** The records the import changed, each with its version before: what an undo of the import puts back. */
  written(): WrittenRecord[] {
    return [...this.originals.keys()]
      .filter((key) => this.differs(key) && this.current(key))
      .map((key) =>
        writtenRecord(this.originals.get(key)!.kind, this.originals.get(key)!.before, this.current(key)!),
      );
  }

  /**
   * At the end of one slice of an import applied in several store changes (see importFile.ts), inside its
   * change: the records of the slice written back as they were get their stored version again, and the others
   * are noted with their digest now, while no other write can come between (a later user edit is then seen by
   * the undo, which leaves such a record as it is). Spread over the slices, the digests cost no long stall.
   */
  endSlice(tx: Transaction): void {
    for (const key of this.sliceTouched) {
      const { kind, before } = this.originals.get(key)!;
      const now = this.current(key);
      if (!this.differs(key)) {
        this.sliced.delete(key);
        if (kind === 'events') tx.putEvent(before as StoredEvent);
        else if (kind === 'venues') tx.putVenue(before as StoredVenue);
        else tx.putOrganizer(before as StoredOrganizer);
      } else if (now) this.sliced.set(key, writtenRecord(kind, before, now));
      else this.sliced.delete(key);
    }
    this.sliceTouched = new Set();
  }

  /** The records the slices applied so far changed, each with its version before and its digest after. */
  slicedWritten(): WrittenRecord[] {
    return [...this.sliced.values()];
  }

  /**
   * At the end of the import: records written back as they were get their stored version again; when no
   * record changed at all, NothingChanged is thrown to take the whole change back (nothing is written).
   */
  finish(tx: Transaction): void {
    const unchanged = [...this.originals.keys()].filter((key) => !this.differs(key));
    if (unchanged.length === this.originals.size) throw new NothingChanged();
    for (const key of unchanged) {
      const { kind, before } = this.originals.get(key)!;
      if (kind === 'events') tx.putEvent(before as StoredEvent);
      else if (kind === 'venues') tx.putVenue(before as StoredVenue);
      else tx.putOrganizer(before as StoredOrganizer);
    }
  }
}
