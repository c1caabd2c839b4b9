import type { Collection } from './collection';
import type { EventIndex } from './eventIndex';
import { isUidCollection, recordWithUid } from './migrations';
import type {
  Settings,
  StoredEvent,
  StoredMedia,
  StoredOrganizer,
  StoredTerm,
  StoredToken,
  StoredUser,
  StoredVenue,
} from './schema';

type CollectionName = 'events' | 'venues' | 'organizers' | 'terms' | 'media' | 'users' | 'tokens';

/** One change as the journal records it: a whole record put, a record deleted, or a setting. */
export type StoreOp =
  | { t: 'put'; c: CollectionName; v: { id: number | string } }
  | { t: 'del'; c: 'terms' | 'tokens'; id: number | string }
  | { t: 'settings'; v: Settings }
  | { t: 'sync'; k: string; v: unknown }
  | { t: 'counters'; v: Counters };

export interface Counters {
  post: number;
  term: number;
  user: number;
}

/** Mutations a transaction may make; every change goes through here so the indexes stay current. */
export interface Transaction {
  nextPostId(): number;
  nextTermId(): number;
  nextUserId(): number;
  /** Makes sure no new id repeats one of `counters` (restoring a dump that brings its own ids). */
  raiseCounters(counters: Counters): void;
  putEvent(event: StoredEvent): void;
  putVenue(venue: StoredVenue): void;
  putOrganizer(organizer: StoredOrganizer): void;
  putTerm(term: StoredTerm): void;
  deleteTerm(id: number): void;
  putMedia(media: StoredMedia): void;
  putUser(user: StoredUser): void;
  putToken(token: StoredToken): void;
  deleteToken(id: string): void;
  setSettings(settings: Settings): void;
  /** Sets one entry of the sync engine's state (`null` removes it); the sync engine validates its shape. */
  setSyncState(key: string, state: unknown): void;
}

/** The in-memory state a transaction changes: the store's records, and the three values replaced whole. */
export interface StoreRecords {
  readonly events: Collection<StoredEvent>;
  readonly eventSlugs: Map<string, number>;
  readonly eventIndex: EventIndex;
  readonly venues: Collection<StoredVenue>;
  readonly organizers: Collection<StoredOrganizer>;
  readonly terms: Collection<StoredTerm>;
  readonly media: Collection<StoredMedia>;
  readonly users: Collection<StoredUser>;
  readonly tokens: Map<string, StoredToken>;
  settings: Settings;
  counters: Counters;
  syncLinks: Record<string, unknown>;
}

/** What one change did: its result, the ops the journal will hold, and the steps that take it back. */
export interface RecordedChange<T> {
  result: T;
  ops: StoreOp[];
  undo: (() => void)[];
}

/**
 * The one way the records change: `run` applies a change through a Transaction and records its journal ops
 * and undo steps; `replay` applies journal ops through the same code, recording nothing.
 */
export class Transactions {
  /** Undo steps and journal ops of the running change (null outside of one, e.g. during replay). */
  private undoLog: (() => void)[] | null = null;
  private opsLog: StoreOp[] | null = null;

  constructor(private readonly records: StoreRecords) {}

  /** Applies `change` at once; a change that throws half-way is taken back before the error goes on. */
  run<T>(change: (tx: Transaction) => T): RecordedChange<T> {
    const undo: (() => void)[] = [];
    const ops: StoreOp[] = [];
    this.undoLog = undo;
    this.opsLog = ops;
    try {
      return { result: change(this.transaction), ops, undo };
    } catch (error) {
      // A change that fails half-way (e.g. a rule error after auto-creating a term) leaves no trace.
      for (const step of undo.reverse()) step();
      throw error;
    } finally {
      this.undoLog = null;
      this.opsLog = null;
    }
  }

  /**
   * Takes back changes whose write failed: `undo` runs last step first. Counters never go back: readers may
   * have seen the ids they handed out.
   */
  takeBack(undo: (() => void)[]): void {
    const counters = { ...this.records.counters };
    for (const step of [...undo].reverse()) step();
    this.records.counters = counters;
  }

  /** Replays one journal op through the same code paths as a live change. */
  replay(op: StoreOp): void {
    const tx = this.transaction;
    switch (op.t) {
      case 'counters': {
        const counters = this.records.counters;
        this.records.counters = {
          post: Math.max(counters.post, op.v.post),
          term: Math.max(counters.term, op.v.term),
          user: Math.max(counters.user, op.v.user),
        };
        return;
      }
      case 'settings':
        tx.setSettings(op.v);
        return;
      case 'sync':
        tx.setSyncState(op.k, op.v);
        return;
      case 'del':
        if (op.c === 'terms') tx.deleteTerm(op.id as number);
        else tx.deleteToken(op.id as string);
        return;
      case 'put': {
        const put: Record<CollectionName, (value: never) => void> = {
          events: tx.putEvent,
          venues: tx.putVenue,
          organizers: tx.putOrganizer,
          terms: tx.putTerm,
          media: tx.putMedia,
          users: tx.putUser,
          tokens: tx.putToken,
        };
        // Batches journaled before records had a uid (an upgrade after an unclean stop) keep the file's uid.
        const value = isUidCollection(op.c)
          ? recordWithUid(op.v, this.records[op.c].get(op.v.id as number))
          : op.v;
        put[op.c](value as never);
      }
    }
  }

  /** Records how to take back one step of the running change, and the op the journal will hold. */
  private undoable(step: () => void, op?: StoreOp) {
    this.undoLog?.push(step);
    if (op) this.opsLog?.push(op);
  }

  /** Puts a record into one of the plain collections; taking it back restores the version it replaced. */
  private putIn<T extends { id: number }>(collection: Collection<T>, name: CollectionName, record: T) {
    const previous = collection.put(record);
    this.undoable(
      () => {
        if (previous) collection.put(previous);
        else collection.delete(record.id);
      },
      { t: 'put', c: name, v: record },
    );
  }

  private indexEvent(event: StoredEvent) {
    const { events, eventSlugs, eventIndex } = this.records;
    const previous = events.put(event);
    if (previous && eventSlugs.get(previous.slug) === previous.id) eventSlugs.delete(previous.slug);
    eventSlugs.set(event.slug, event.id);
    eventIndex.update(previous, event);
  }

  private unindexEvent(event: StoredEvent) {
    const { events, eventSlugs, eventIndex } = this.records;
    const previous = events.delete(event.id);
    if (!previous) return;
    if (eventSlugs.get(previous.slug) === previous.id) eventSlugs.delete(previous.slug);
    eventIndex.update(previous, undefined);
  }

  private readonly transaction: Transaction = {
    nextPostId: () => {
      this.undoable(() => this.records.counters.post--);
      return ++this.records.counters.post;
    },
    nextTermId: () => {
      this.undoable(() => this.records.counters.term--);
      return ++this.records.counters.term;
    },
    nextUserId: () => {
      this.undoable(() => this.records.counters.user--);
      return ++this.records.counters.user;
    },
    raiseCounters: (counters) => {
      const previous = { ...this.records.counters };
      this.records.counters = {
        post: Math.max(previous.post, counters.post),
        term: Math.max(previous.term, counters.term),
        user: Math.max(previous.user, counters.user),
      };
      this.undoable(() => (this.records.counters = previous));
    },
    putEvent: (event) => {
      const previous = this.records.events.get(event.id);
      this.indexEvent(event);
      this.undoable(
        () => {
          if (previous) this.indexEvent(previous);
          else this.unindexEvent(event);
        },
        { t: 'put', c: 'events', v: event },
      );
    },
    putVenue: (venue) => this.putIn(this.records.venues, 'venues', venue),
    putOrganizer: (organizer) => this.putIn(this.records.organizers, 'organizers', organizer),
    putTerm: (term) => this.putIn(this.records.terms, 'terms', term),
    deleteTerm: (id) => {
      const { terms } = this.records;
      const previous = terms.delete(id);
      if (previous) this.undoable(() => terms.put(previous), { t: 'del', c: 'terms', id });
    },
    putMedia: (media) => this.putIn(this.records.media, 'media', media),
    putUser: (user) => this.putIn(this.records.users, 'users', user),
    putToken: (token) => {
      const { tokens } = this.records;
      const previous = tokens.get(token.id);
      tokens.set(token.id, token);
      this.undoable(
        () => {
          if (previous) tokens.set(token.id, previous);
          else tokens.delete(token.id);
        },
        { t: 'put', c: 'tokens', v: token },
      );
    },
    deleteToken: (id) => {
      const { tokens } = this.records;
      const previous = tokens.get(id);
      tokens.delete(id);
      if (previous) this.undoable(() => tokens.set(id, previous), { t: 'del', c: 'tokens', id });
    },
    setSettings: (settings) => {
      const previous = this.records.settings;
      this.records.settings = settings;
      this.undoable(() => (this.records.settings = previous), { t: 'settings', v: settings });
    },
    setSyncState: (key, state) => {
      const had = Object.hasOwn(this.records.syncLinks, key);
      const previous = this.records.syncLinks[key];
      if (state === null || state === undefined) delete this.records.syncLinks[key];
      else this.records.syncLinks[key] = state;
      this.undoable(
        () => {
          if (had) this.records.syncLinks[key] = previous;
          else delete this.records.syncLinks[key];
        },
        { t: 'sync', k: key, v: state ?? null },
      );
    },
  };
}
