import type { PostKind } from '../../shared/enums';
import type { ChangeFeed } from './changeFeed';
import type { Collection } from './collection';
import type { EventIndex } from './eventIndex';
import { isUidCollection, recordWithUid } from './migrations';
import type {
  FeedKind,
  Settings,
  StoredEvent,
  StoredMedia,
  StoredOrganizer,
  StoredTerm,
  StoredToken,
  StoredUser,
  StoredVenue,
  Tombstone,
} from './schema';

type CollectionName = 'events' | 'venues' | 'organizers' | 'terms' | 'media' | 'users' | 'tokens';
/** The collections the change feed follows. */
type FeedCollection = 'events' | 'venues' | 'organizers' | 'terms';
type PostCollection = Exclude<FeedCollection, 'terms'>;

const POST_COLLECTION: Record<PostKind, PostCollection> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
};

/**
 * One change as the journal records it: a whole record put, a record deleted, or a setting. Puts and deletes
 * of the records the change feed follows carry their change number (`s`) and tombstone (`tomb`); batches
 * written before the feed existed have neither, and replay gives them the next numbers.
 */
export type StoreOp =
  | { t: 'put'; c: CollectionName; v: { id: number | string }; s?: number }
  | { t: 'del'; c: FeedCollection | 'tokens'; id: number | string; tomb?: Tombstone }
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
  /** Deletes a category or tag for good; the change feed keeps a tombstone dated `deletedUtc`. */
  deleteTerm(id: number, deletedUtc: string): void;
  /**
   * Deletes an event, venue or organizer for good (moving one to the trash is a put); the change feed keeps
   * a tombstone dated `deletedUtc`.
   */
  deletePost(kind: PostKind, id: number, deletedUtc: string): void;
  putMedia: (media: StoredMedia) => void;
  putUser: (user: StoredUser) => void;
  putToken: (token: StoredToken) => void;
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
  readonly changeFeed: ChangeFeed;
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
   * Takes back changes whose write failed: `undo` runs last step first. Counters (and the change feed's
   * number) never go back: readers may have seen the ids they handed out.
   */
  takeBack(undo: (() => void)[]): void {
    const counters = { ...this.records.counters };
    const { changeFeed } = this.records;
    const changeSeq = changeFeed.seq;
    for (const step of [...undo].reverse()) step();
    this.records.counters = counters;
    changeFeed.seq = changeSeq;
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
        if (op.c === 'tokens') tx.deleteToken(op.id as string);
        else this.deleteRecord(op.c, op.id as number, op.tomb ?? null);
        return;
      case 'put': {
        const put: Record<CollectionName, (value: never) => void> = {
          events: (event: StoredEvent) => this.putEventAt(event, op.s),
          venues: (venue: StoredVenue) => this.putFollowed(this.records.venues, 'venues', venue, op.s),
          organizers: (organizer: StoredOrganizer) =>
            this.putFollowed(this.records.organizers, 'organizers', organizer, op.s),
          terms: (term: StoredTerm) => this.putFollowed(this.records.terms, 'terms', term, op.s),
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

  /**
   * Gives a change of a followed record its number in the change feed (`seq` when replayed, else the next
   * one); taking it back puts the record back at the number it had.
   */
  private numberChange(kind: FeedKind, id: number, seq: number | undefined): number {
    const feed = this.records.changeFeed;
    const previous = feed.seqOf(kind, id);
    const last = feed.seq;
    const number = seq ?? feed.next();
    feed.raise(number);
    feed.setSeq(kind, id, number);
    this.undoable(() => {
      feed.setSeq(kind, id, previous);
      feed.seq = last;
    });
    return number;
  }

  /** Puts a venue, organizer or term, numbering the change in the feed. */
  private putFollowed<T extends StoredVenue | StoredOrganizer | StoredTerm>(
    collection: Collection<T>,
    name: Exclude<FeedCollection, 'events'>,
    record: T,
    seq?: number,
  ) {
    const s = this.numberChange(feedKindOf(name, record), record.id, seq);
    const previous = collection.put(record);
    this.undoable(
      () => {
        if (previous) collection.put(previous);
        else collection.delete(record.id);
      },
      { t: 'put', c: name, v: record, s },
    );
  }

  private putEventAt(event: StoredEvent, seq?: number) {
    const s = this.numberChange('event', event.id, seq);
    const previous = this.records.events.get(event.id);
    this.indexEvent(event);
    this.undoable(
      () => {
        if (previous) this.indexEvent(previous);
        else this.unindexEvent(event);
      },
      { t: 'put', c: 'events', v: event, s },
    );
  }

  /**
   * Deletes a followed record for good and keeps its tombstone (`tombstone` when replayed; batches from
   * before the feed get one dated at the record's last change). Nothing happens when it does not exist.
   */
  private deleteRecord(name: FeedCollection, id: number, tombstone: Tombstone | null, deletedUtc = '') {
    const { changeFeed: feed } = this.records;
    const record = name === 'events' ? this.records.events.get(id) : this.records[name].get(id);
    if (!record) return;
    const kind = feedKindOf(name, record);
    const last = feed.seq;
    const tomb = tombstone ?? {
      seq: feed.next(),
      kind,
      id,
      uid: record.uid,
      deletedUtc: deletedUtc || record.modifiedUtc,
    };
    feed.raise(tomb.seq);
    const previousSeq = feed.seqOf(kind, id);
    if (name === 'events') this.unindexEvent(record as StoredEvent);
    else (this.records[name] as Collection<typeof record>).delete(id);
    feed.setSeq(kind, id, undefined);
    const untomb = feed.addTombstone(tomb);
    this.undoable(
      () => {
        untomb();
        feed.seq = last;
        feed.setSeq(kind, id, previousSeq);
        if (name === 'events') this.indexEvent(record as StoredEvent);
        else (this.records[name] as Collection<typeof record>).put(record);
      },
      { t: 'del', c: name, id, tomb },
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
    putEvent: (event) => this.putEventAt(event),
    putVenue: (venue) => this.putFollowed(this.records.venues, 'venues', venue),
    putOrganizer: (organizer) => this.putFollowed(this.records.organizers, 'organizers', organizer),
    putTerm: (term) => this.putFollowed(this.records.terms, 'terms', term),
    deleteTerm: (id, deletedUtc) => this.deleteRecord('terms', id, null, deletedUtc),
    deletePost: (kind, id, deletedUtc) => this.deleteRecord(POST_COLLECTION[kind], id, null, deletedUtc),
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

/** The feed's kind of a record of a followed collection (a term's is its taxonomy). */
function feedKindOf(name: FeedCollection, record: StoredEvent | StoredVenue | StoredOrganizer | StoredTerm) {
  if (name === 'terms') return (record as StoredTerm).taxonomy;
  return ({ events: 'event', venues: 'venue', organizers: 'organizer' } as const)[name];
}
