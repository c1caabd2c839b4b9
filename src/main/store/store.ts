import { join } from 'node:path';
import type { Adapter } from 'lowdb';
import { lockDataFolder, type FolderLock } from './lock';
import { removeAbandonedCopies } from './durableJsonFile';
import {
  describeWriteFailure,
  explainRefusal,
  storageRefusalOf,
  type StorageRefusal,
} from './storageRefusal';
import type { JournalEntry } from './journal';
import { migrate } from './migrations';
import {
  DATA_FILE_NAME,
  JournaledPersistence,
  ReadOnlyPersistence,
  SnapshotPersistence,
  type JournaledOptions,
  type Persistence,
} from './persistence';
import { Collection } from './collection';
import { EventIndex } from './eventIndex';
import {
  dataFileSchema,
  dataFileShapeSchema,
  emptyDataFile,
  SCHEMA_VERSION,
  type DataFile,
  type Settings,
  type StoredEvent,
  type StoredMedia,
  type StoredOrganizer,
  type StoredTerm,
  type StoredToken,
  type StoredUser,
  type StoredVenue,
} from './schema';

export { DATA_FILE_NAME };

export class StorageUnavailableError extends Error {
  readonly code = 'STORAGE_UNAVAILABLE';
}

/** The data file exists but is not a Calendar Desk file (not JSON, or not matching the schema). */
export class DataFileInvalidError extends Error {
  readonly code: string = 'DATA_FILE_INVALID';
}

/** The data file was written by a newer Calendar Desk: not damaged, so never replaced by a backup. */
export class DataFileTooNewError extends DataFileInvalidError {
  override readonly code = 'DATA_FILE_TOO_NEW';
}

/** The data file could not be read at all (permissions, a folder in its place, an I/O error). */
export class DataFileUnreadableError extends Error {
  readonly code = 'DATA_FILE_UNREADABLE';
}

export interface OpenStoreOptions {
  dataDir: string;
  /** Settings of a brand-new data file. */
  initialSettings: Settings;
  /** Skip the single-owner lock (read-only inspection in tests). */
  lock?: boolean;
  /** Keep the whole file in this lowdb adapter, rewritten on every commit, instead of the journal (tests). */
  adapter?: Adapter<DataFile>;
  /** Tuning of the journal (compaction threshold, backups). */
  journal?: JournaledOptions;
  /** Replaces the persistence altogether (tests inject failures this way). */
  persistence?: Persistence<StoreOp>;
}

/** Events indexed per slice of the background build (a few milliseconds of work). */
const INDEX_SLICE = 2000;

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

interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
  ops: StoreOp[];
  undo: (() => void)[];
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

/**
 * The calendar's data: one lowdb file owned by one process, read from memory, changed through `mutate()`.
 * Concurrent mutations are applied in memory at once and written together (group commit); each caller's
 * promise settles only when its change is durably on disk. A failed write restores the last state that is
 * on disk, and every change that was not yet written is reported as failed.
 */
/**
 * The calendar's data: one data folder owned by one process, read from memory, changed through `mutate()`.
 * A change is applied in memory at once; concurrent changes are committed together (group commit) as one
 * journal batch, and each caller's promise settles only when its batch is durably on disk. A failed commit
 * takes its changes (and those that came after them) back out of memory and reports them all as failed.
 */
export class CalendarStore {
  readonly events = new Collection<StoredEvent>();
  readonly eventSlugs = new Map<string, number>();
  readonly venues = new Collection<StoredVenue>((venue) => venue.slug);
  readonly organizers = new Collection<StoredOrganizer>((organizer) => organizer.slug);
  readonly terms = new Collection<StoredTerm>();
  readonly media = new Collection<StoredMedia>();
  readonly users = new Collection<StoredUser>((user) => user.login.toLowerCase());
  readonly tokens = new Map<string, StoredToken>();
  readonly eventIndex = new EventIndex();
  settings!: Settings;
  /** What the user should be told about this start (a restored backup, a discarded torn write, a migration). */
  readonly notices: string[] = [];
  private counters: Counters = { post: 0, term: 0, user: 0 };
  private syncLinks: Record<string, unknown> = {};
  /** Bumped whenever the in-memory state changes (a change applied or undone): readers' cache key. */
  private changeCount = 0;
  /** Sequence number of the last batch that is durable. */
  private seq = 0;
  /** Undo steps and journal ops of the running `mutate()` change (null outside of one, e.g. during replay). */
  private undoLog: (() => void)[] | null = null;
  private opsLog: StoreOp[] | null = null;

  private pendingBatch: Batch | null = null;
  /** Batches whose write failed (and were taken back) since the start: readers rebuild what they saw. */
  private failedCommits = 0;
  /** The batch being written right now. */
  private committing: Batch | null = null;
  private writing: Promise<void> | null = null;
  private compacting: Promise<void> | null = null;
  private closed = false;

  private constructor(
    readonly dataDir: string,
    private readonly persistence: Persistence<StoreOp>,
    private readonly lock: FolderLock | null,
  ) {}

  /**
   * Opens the data folder to read and write it. When its disk refuses writes (full, mounted read-only, not
   * writable by us), the calendar is opened read-only instead, so that it can still be read and exported:
   * `readOnly` then says why, every change is refused with that reason, and a notice tells the user.
   */
  static async open(options: OpenStoreOptions): Promise<CalendarStore> {
    try {
      return await CalendarStore.openWritable(options);
    } catch (error) {
      const refusal = storageRefusalOf(error);
      // Only the real data folder falls back; an injected persistence (tests) gets its own error.
      if (!refusal || options.lock === false || options.persistence || options.adapter) throw error;
      return CalendarStore.openReadOnly(options, refusal);
    }
  }

  /**
   * Without the lock (it cannot be recorded on such a disk) and without changing a byte: the durable state
   * (data file plus journal) is read as it is.
   */
  private static async openReadOnly(options: OpenStoreOptions, refusal: StorageRefusal) {
    const store = new CalendarStore(options.dataDir, new ReadOnlyPersistence<StoreOp>(options.dataDir), null);
    const { what, todo } = explainRefusal(refusal, options.dataDir);
    store.readOnly = `${what}; ${todo}, then restart Calendar Desk`;
    await store.load(options.initialSettings);
    store.notices.push(
      `Read-only: ${what}. The calendar can be read and exported, but changes are refused: ${todo}, ` +
        'then restart Calendar Desk.',
    );
    return store;
  }

  private static async openWritable(options: OpenStoreOptions): Promise<CalendarStore> {
    const lock = options.lock === false ? null : await lockDataFolder(options.dataDir);
    const persistence =
      options.persistence ??
      (options.adapter
        ? new SnapshotPersistence<StoreOp>(options.adapter)
        : new JournaledPersistence<StoreOp>(options.dataDir, options.journal));
    try {
      // Ours now: a snapshot a crash interrupted (as big as the calendar) must not pile up over the crashes.
      if (lock) await removeAbandonedCopies(options.dataDir, () => true);
      const store = new CalendarStore(options.dataDir, persistence, lock);
      await store.load(options.initialSettings);
      // Batches replayed from the journal are folded into the data file in the background, right away.
      if (store.compactSoon) store.writing = store.writeLoop();
      return store;
    } catch (error) {
      await persistence.close().catch(() => undefined);
      await lock?.release();
      throw error;
    }
  }

  /** The durable state of a folder (data file plus journal), read without locking or changing anything. */
  static async inspect(dataDir: string, initialSettings: Settings): Promise<DataFile> {
    const store = await CalendarStore.open({
      dataDir,
      initialSettings,
      lock: false,
      persistence: new ReadOnlyPersistence<StoreOp>(dataDir),
    });
    return store.snapshot();
  }

  /** Why the calendar was opened read-only (its disk refuses writes), or null when it can be changed. */
  readOnly: string | null = null;

  /** The lock of the folder, so the server can record where it listens. */
  get folderLock(): FolderLock | null {
    return this.lock;
  }

  /** Checks raw file content: a known schema version, migrated forward, matching the schema. */
  private readonly validate = (raw: unknown, trusted = false): DataFile => {
    const file = join(this.dataDir, DATA_FILE_NAME);
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new DataFileInvalidError(
        `The data file ${file} is not a valid Calendar Desk file: it holds no object.`,
      );
    }
    const version = (raw as { schemaVersion?: unknown }).schemaVersion;
    if (typeof version === 'number' && version > SCHEMA_VERSION) {
      throw new DataFileTooNewError(
        `The data file ${file} was written by a newer Calendar Desk (schema version ${version}; ` +
          `this one reads ${SCHEMA_VERSION}). Update Calendar Desk to open it.`,
      );
    }
    const { data, applied } = migrate(raw as Record<string, unknown>);
    const parsed = (trusted ? dataFileShapeSchema : dataFileSchema).safeParse(data);
    if (!parsed.success) {
      throw new DataFileInvalidError(
        `The data file ${file} is not a valid Calendar Desk file: ` +
          parsed.error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`)
            .join('; '),
      );
    }
    if (applied.length > 0) this.migrated = applied;
    return parsed.data;
  };

  private migrated: number[] = [];

  /** Reads the data file and replays newer journal batches; a new folder gets an empty calendar on disk. */
  private async load(initialSettings: Settings) {
    const file = join(this.dataDir, DATA_FILE_NAME);
    let loaded: Awaited<ReturnType<Persistence<StoreOp>['load']>>;
    try {
      loaded = await this.persistence.load(this.validate);
    } catch (error) {
      if (error instanceof SyntaxError) {
        throw new DataFileInvalidError(
          `The data file ${file} is not a valid Calendar Desk file: it is not JSON (${error.message}), ` +
            'and no backup could be restored.',
        );
      }
      if (error instanceof DataFileInvalidError || error instanceof DataFileTooNewError) throw error;
      throw new DataFileUnreadableError(
        `The data file ${file} cannot be read: ${(error as Error).message}.`,
        {
          cause: error,
        },
      );
    }
    this.notices.push(...loaded.notices);
    const base = loaded.base ?? emptyDataFile(initialSettings);
    this.hydrate(base);
    this.seq = base.journalSeq;
    for (const entry of loaded.entries) {
      for (const op of entry.ops) this.apply(op);
      this.seq = entry.seq;
    }
    if (this.migrated.length > 0) {
      this.notices.push(`The data file was upgraded to schema version ${SCHEMA_VERSION}.`);
    }
    if (!loaded.base || this.migrated.length > 0) {
      await this.persistence.writeSnapshot(this.snapshot());
    } else if (loaded.entries.length > 0) {
      // Fold the replayed batches into the data file soon, without delaying the start.
      this.compactSoon = true;
    }
  }

  private compactSoon = false;

  private hydrate(data: DataFile) {
    this.clear();
    this.settings = data.settings;
    this.counters = { ...data.counters };
    this.syncLinks = data.syncLinks;
    for (const event of data.events) {
      this.events.put(event);
      this.eventSlugs.set(event.slug, event.id);
    }
    this.eventIndex.reset(data.events);
    for (const venue of data.venues) this.venues.put(venue);
    for (const organizer of data.organizers) this.organizers.put(organizer);
    for (const term of data.terms) this.terms.put(term);
    for (const media of data.media) this.media.put(media);
    for (const user of data.users) this.users.put(user);
    for (const token of data.tokens) this.tokens.set(token.id, token);
  }

  private clear() {
    this.eventIndex.reset([]);
    this.events.clear();
    this.eventSlugs.clear();
    this.venues.clear();
    this.organizers.clear();
    this.terms.clear();
    this.media.clear();
    this.users.clear();
    this.tokens.clear();
  }

  /** Replays one journal op through the same code paths as a live change. */
  private apply(op: StoreOp) {
    const tx = this.transaction;
    switch (op.t) {
      case 'counters':
        this.counters = {
          post: Math.max(this.counters.post, op.v.post),
          term: Math.max(this.counters.term, op.v.term),
          user: Math.max(this.counters.user, op.v.user),
        };
        return;
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
        put[op.c](op.v as never);
      }
    }
  }

  private indexEvent(event: StoredEvent) {
    const previous = this.events.put(event);
    if (previous && this.eventSlugs.get(previous.slug) === previous.id) this.eventSlugs.delete(previous.slug);
    this.eventSlugs.set(event.slug, event.id);
    this.eventIndex.update(previous, event);
  }

  private unindexEvent(event: StoredEvent) {
    const previous = this.events.delete(event.id);
    if (!previous) return;
    if (this.eventSlugs.get(previous.slug) === previous.id) this.eventSlugs.delete(previous.slug);
    this.eventIndex.update(previous, undefined);
  }

  eventBySlug(slug: string): StoredEvent | undefined {
    const id = this.eventSlugs.get(slug);
    return id === undefined ? undefined : this.events.get(id);
  }

  /** One entry of the sync engine's state (`undefined` when absent). */
  syncState(key: string): unknown {
    return this.syncLinks[key];
  }

  /** Keys of the sync engine's state that start with `prefix`. */
  syncKeys(prefix: string): string[] {
    return Object.keys(this.syncLinks).filter((key) => key.startsWith(prefix));
  }

  /** The whole data file as it would be written now. */
  snapshot(): DataFile {
    return {
      schemaVersion: SCHEMA_VERSION,
      journalSeq: this.seq,
      counters: { ...this.counters },
      settings: this.settings,
      events: this.events.toArray(),
      venues: this.venues.toArray(),
      organizers: this.organizers.toArray(),
      terms: this.terms.toArray(),
      media: this.media.toArray(),
      users: this.users.toArray(),
      tokens: [...this.tokens.values()],
      syncLinks: { ...this.syncLinks },
    };
  }

  /** Changes whenever what readers see changes; equal versions mean identical state. */
  get version(): number {
    return this.changeCount;
  }

  /** Throws the StorageUnavailableError a change would end in when none can be saved (closed, read-only). */
  assertWritable(): void {
    if (this.closed) throw new StorageUnavailableError('The calendar store is closed.');
    if (this.readOnly) {
      throw new StorageUnavailableError(`the calendar is open read-only because ${this.readOnly}`);
    }
  }

  /**
   * Applies `change` to the in-memory state at once (it must be synchronous, so no other request sees half of
   * it) and resolves with its result once the change is durably written.
   */
  async mutate<T>(change: (tx: Transaction) => T): Promise<T> {
    this.assertWritable();
    const undo: (() => void)[] = [];
    const ops: StoreOp[] = [];
    this.undoLog = undo;
    this.opsLog = ops;
    let result: T;
    try {
      result = change(this.transaction);
    } catch (error) {
      // A change that fails half-way (e.g. a rule error after auto-creating a term) leaves no trace.
      for (const step of undo.reverse()) step();
      throw error;
    } finally {
      this.undoLog = null;
      this.opsLog = null;
    }
    if (ops.length === 0) return result;
    this.changeCount++;
    const batch = this.pendingBatch ?? this.openBatch();
    batch.ops.push(...ops);
    batch.undo.push(...undo);
    if (!this.writing) this.writing = this.writeLoop();
    await batch.promise;
    return result;
  }

  /** Records how to take back one step of the running change, and the op the journal will hold. */
  private undoable(step: () => void, op?: StoreOp) {
    this.undoLog?.push(step);
    if (op) this.opsLog?.push(op);
  }

  private restoreIn<T extends { id: number }>(collection: Collection<T>, id: number, previous?: T) {
    if (previous) collection.put(previous);
    else collection.delete(id);
  }

  private readonly transaction: Transaction = {
    nextPostId: () => {
      this.undoable(() => this.counters.post--);
      return ++this.counters.post;
    },
    nextTermId: () => {
      this.undoable(() => this.counters.term--);
      return ++this.counters.term;
    },
    nextUserId: () => {
      this.undoable(() => this.counters.user--);
      return ++this.counters.user;
    },
    raiseCounters: (counters) => {
      const previous = { ...this.counters };
      this.counters = {
        post: Math.max(previous.post, counters.post),
        term: Math.max(previous.term, counters.term),
        user: Math.max(previous.user, counters.user),
      };
      this.undoable(() => (this.counters = previous));
    },
    putEvent: (event) => {
      const previous = this.events.get(event.id);
      this.indexEvent(event);
      this.undoable(
        () => {
          if (previous) this.indexEvent(previous);
          else this.unindexEvent(event);
        },
        { t: 'put', c: 'events', v: event },
      );
    },
    putVenue: (venue) => {
      const previous = this.venues.put(venue);
      this.undoable(() => this.restoreIn(this.venues, venue.id, previous), {
        t: 'put',
        c: 'venues',
        v: venue,
      });
    },
    putOrganizer: (organizer) => {
      const previous = this.organizers.put(organizer);
      this.undoable(() => this.restoreIn(this.organizers, organizer.id, previous), {
        t: 'put',
        c: 'organizers',
        v: organizer,
      });
    },
    putTerm: (term) => {
      const previous = this.terms.put(term);
      this.undoable(() => this.restoreIn(this.terms, term.id, previous), { t: 'put', c: 'terms', v: term });
    },
    deleteTerm: (id) => {
      const previous = this.terms.delete(id);
      if (previous) this.undoable(() => this.terms.put(previous), { t: 'del', c: 'terms', id });
    },
    putMedia: (media) => {
      const previous = this.media.put(media);
      this.undoable(() => this.restoreIn(this.media, media.id, previous), { t: 'put', c: 'media', v: media });
    },
    putUser: (user) => {
      const previous = this.users.put(user);
      this.undoable(() => this.restoreIn(this.users, user.id, previous), { t: 'put', c: 'users', v: user });
    },
    putToken: (token) => {
      const previous = this.tokens.get(token.id);
      this.tokens.set(token.id, token);
      this.undoable(
        () => {
          if (previous) this.tokens.set(token.id, previous);
          else this.tokens.delete(token.id);
        },
        { t: 'put', c: 'tokens', v: token },
      );
    },
    deleteToken: (id) => {
      const previous = this.tokens.get(id);
      this.tokens.delete(id);
      if (previous) this.undoable(() => this.tokens.set(id, previous), { t: 'del', c: 'tokens', id });
    },
    setSettings: (settings) => {
      const previous = this.settings;
      this.settings = settings;
      this.undoable(() => (this.settings = previous), { t: 'settings', v: settings });
    },
    setSyncState: (key, state) => {
      const had = Object.hasOwn(this.syncLinks, key);
      const previous = this.syncLinks[key];
      if (state === null || state === undefined) delete this.syncLinks[key];
      else this.syncLinks[key] = state;
      this.undoable(
        () => {
          if (had) this.syncLinks[key] = previous;
          else delete this.syncLinks[key];
        },
        { t: 'sync', k: key, v: state ?? null },
      );
    },
  };

  private openBatch(): Batch {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.pendingBatch = { promise, resolve, reject, ops: [], undo: [] };
    return this.pendingBatch;
  }

  /**
   * Commits batches one after another until none is pending, folding the journal into the data file when it
   * has grown. The last check and clearing `writing` happen without an await in between, so a change made
   * meanwhile always finds a loop that will write it.
   */
  private async writeLoop(): Promise<void> {
    try {
      for (;;) {
        const batch = this.pendingBatch;
        if (batch) {
          this.pendingBatch = null;
          this.committing = batch;
          try {
            await this.commitBatch(batch);
          } finally {
            this.committing = null;
          }
          continue;
        }
        if (!this.compacting && !this.closed && (this.compactSoon || this.persistence.needsCompaction())) {
          this.compactSoon = false;
          await this.startCompaction();
          continue;
        }
        break;
      }
    } finally {
      // Also after an unexpected error: a later change must always find no loop and start one.
      this.writing = null;
    }
  }

  private async commitBatch(batch: Batch) {
    const entry: JournalEntry<StoreOp> = {
      seq: this.seq + 1,
      ops: [...batch.ops, { t: 'counters', v: { ...this.counters } }],
    };
    try {
      await this.persistence.commit(entry, () => ({ ...this.snapshot(), journalSeq: entry.seq }));
      this.seq = entry.seq;
      batch.resolve();
    } catch (error) {
      // Nothing of this batch is on disk: take it back out of memory, and the batch made while it was being
      // written too (it may build on it), newest first. Counters never go back: readers may have seen ids.
      this.failedCommits++;
      const failure = new StorageUnavailableError(
        `could not write the calendar: ${describeWriteFailure(error, this.dataDir)}`,
      );
      const next = this.pendingBatch;
      this.pendingBatch = null;
      const counters = { ...this.counters };
      for (const step of [...(next?.undo ?? []), ...batch.undo].reverse()) step();
      this.changeCount++;
      this.counters = counters;
      batch.reject(failure);
      next?.reject(failure);
    }
  }

  /**
   * Compaction: the state right now (nothing is pending, so it is exactly what the journal holds) goes to
   * the data file in the background while new batches go to a fresh journal.
   */
  private async startCompaction() {
    const snapshot = this.snapshot();
    try {
      await this.persistence.rotate(this.seq + 1);
    } catch (error) {
      // The current journal keeps taking batches; folding is tried again when it grows further.
      this.reportTrouble(`could not start a new journal: ${(error as Error).message}`);
      return;
    }
    this.compacting = this.persistence
      .writeSnapshot(snapshot)
      .catch((error: Error) => {
        // The journal still holds everything: nothing is lost, the next compaction tries again.
        this.reportTrouble(`could not fold the journal into the data file: ${error.message}`);
      })
      .finally(() => {
        this.compacting = null;
      });
  }

  /**
   * Builds, between requests, the indexes a start leaves out (see EventIndex): a slice of events per turn of
   * the event loop, so that requests arriving meanwhile wait for one slice at most.
   */
  completeIndexesSoon(): void {
    const step = () => {
      if (!this.closed && !this.eventIndex.buildSome(INDEX_SLICE)) setImmediate(step);
    };
    setImmediate(step);
  }

  /** Resolves once every change applied in memory so far is on disk, or was taken back (its write failed). */
  async settled(): Promise<void> {
    const waiting = [this.committing?.promise, this.pendingBatch?.promise].filter((promise) => !!promise);
    if (waiting.length > 0) await Promise.allSettled(waiting);
  }

  /**
   * The answer of a read (or the error it ends in), handed out once every change it may show is on disk: no
   * reader ever sees a change that a crash could still take back. If a write failed meanwhile (its change
   * was taken back), the answer is built again without it; a second failure is a StorageUnavailableError.
   */
  async readSettled<T>(build: () => T | Promise<T>): Promise<T> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const failuresBefore = this.failedCommits;
      let outcome: { value: T } | { error: unknown };
      try {
        outcome = { value: await build() };
      } catch (error) {
        outcome = { error };
      }
      await this.settled();
      if (this.failedCommits === failuresBefore) {
        if ('error' in outcome) throw outcome.error;
        return outcome.value;
      }
    }
    throw new StorageUnavailableError('The calendar could not be written just now; try again.');
  }

  /** Resolves once no commit and no background folding is under way. */
  async idle(): Promise<void> {
    while (this.writing || this.compacting) {
      await this.writing;
      await this.compacting;
    }
  }

  /** Trouble in background work: logged, and kept as a notice the app can show. */
  private reportTrouble(message: string) {
    console.error(`calendar-desk: ${message}`);
    this.notices.push(`Background save problem: ${message}. Nothing is lost; it is retried.`);
  }

  /** Waits for pending writes, folds the journal into the data file, then releases the folder. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.writing?.catch(() => undefined);
      await this.compacting;
      if (this.persistence instanceof JournaledPersistence && this.persistence.hasJournal()) {
        const snapshot = this.snapshot();
        try {
          await this.persistence.rotate(this.seq + 1);
          await this.persistence.writeSnapshot(snapshot);
        } catch (error) {
          // The journal still holds every change: the next start replays it.
          this.reportTrouble(
            `could not fold the journal into the data file at shutdown: ${(error as Error).message}`,
          );
        }
      }
    } finally {
      await this.persistence.close();
      await this.lock?.release();
    }
  }
}
