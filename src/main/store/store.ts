import { join } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { DurableJsonFile } from './durableJsonFile';
import { lockDataFolder, type FolderLock } from './lock';
import { Collection } from './collection';
import { EventIndex } from './eventIndex';
import {
  dataFileSchema,
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

export const DATA_FILE_NAME = 'calendar.json';

export class StorageUnavailableError extends Error {
  readonly code = 'STORAGE_UNAVAILABLE';
}

/** The data file exists but is not a Calendar Desk file (not JSON, or not matching the schema). */
export class DataFileInvalidError extends Error {
  readonly code = 'DATA_FILE_INVALID';
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
  /** Replaces the durable file adapter (tests use it to make writes fail or to keep data in memory). */
  adapter?: Adapter<DataFile>;
}

/** Mutations a transaction may make; every change goes through here so the indexes stay current. */
export interface Transaction {
  nextPostId(): number;
  nextTermId(): number;
  nextUserId(): number;
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
}

/**
 * The calendar's data: one lowdb file owned by one process, read from memory, changed through `mutate()`.
 * Concurrent mutations are applied in memory at once and written together (group commit); each caller's
 * promise settles only when its change is durably on disk. A failed write restores the last state that is
 * on disk, and every change that was not yet written is reported as failed.
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
  private counters = { post: 0, term: 0, user: 0 };
  private syncLinks: Record<string, unknown> = {};
  /** The state last read from or written to disk: what a failed write falls back to. */
  private durable!: DataFile;
  /** Undo steps of the running `mutate()` change, so a change that throws leaves nothing behind. */
  private undoLog: (() => void)[] | null = null;

  private pendingBatch: {
    promise: Promise<void>;
    resolve: () => void;
    reject: (error: Error) => void;
  } | null = null;
  private writing: Promise<void> | null = null;
  private closed = false;

  private constructor(
    readonly dataDir: string,
    private readonly db: Low<DataFile>,
    private readonly lock: FolderLock | null,
  ) {}

  static async open(options: OpenStoreOptions): Promise<CalendarStore> {
    const lock = options.lock === false ? null : await lockDataFolder(options.dataDir);
    try {
      const adapter = options.adapter ?? new DurableJsonFile<DataFile>(join(options.dataDir, DATA_FILE_NAME));
      const db = new Low<DataFile>(adapter, emptyDataFile(options.initialSettings));
      const store = new CalendarStore(options.dataDir, db, lock);
      await store.load();
      return store;
    } catch (error) {
      await lock?.release();
      throw error;
    }
  }

  /** The lock of the folder, so the server can record where it listens. */
  get folderLock(): FolderLock | null {
    return this.lock;
  }

  get isNew(): boolean {
    return this.users.size === 0;
  }

  /** Reads and validates the data file; a missing file starts an empty calendar, written at once. */
  private async load() {
    const file = join(this.dataDir, DATA_FILE_NAME);
    let stored: unknown;
    try {
      // Straight from the adapter: Low.read() would take any falsy content for "no file".
      stored = await this.db.adapter.read();
    } catch (error) {
      if (error instanceof SyntaxError) {
        throw new DataFileInvalidError(
          `The data file ${file} is not a valid Calendar Desk file: it is not JSON (${error.message}).`,
        );
      }
      throw new DataFileUnreadableError(`The data file ${file} cannot be read: ${(error as Error).message}.`);
    }
    const exists = stored !== null;
    if (exists) this.db.data = stored as DataFile;
    const version = (this.db.data as { schemaVersion?: unknown } | null)?.schemaVersion;
    if (typeof version === 'number' && version > SCHEMA_VERSION) {
      throw new DataFileInvalidError(
        `The data file ${file} was written by a newer Calendar Desk (schema version ${version}; ` +
          `this one reads ${SCHEMA_VERSION}). Update Calendar Desk to open it.`,
      );
    }
    const parsed = dataFileSchema.safeParse(this.db.data);
    if (!parsed.success) {
      throw new DataFileInvalidError(
        `The data file ${file} is not a valid Calendar Desk file: ` +
          parsed.error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`)
            .join('; '),
      );
    }
    this.hydrate(parsed.data);
    if (!exists) await this.db.write();
    this.durable = parsed.data;
  }

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

  /** The whole data file as it would be written now. */
  snapshot(): DataFile {
    return {
      schemaVersion: SCHEMA_VERSION,
      counters: { ...this.counters },
      settings: this.settings,
      events: this.events.toArray(),
      venues: this.venues.toArray(),
      organizers: this.organizers.toArray(),
      terms: this.terms.toArray(),
      media: this.media.toArray(),
      users: this.users.toArray(),
      tokens: [...this.tokens.values()],
      syncLinks: this.syncLinks,
    };
  }

  /**
   * Applies `change` to the in-memory state at once (it must be synchronous, so no other request sees half of
   * it) and resolves with its result once the change is durably written.
   */
  async mutate<T>(change: (tx: Transaction) => T): Promise<T> {
    if (this.closed) throw new StorageUnavailableError('The calendar store is closed.');
    const undo: (() => void)[] = [];
    this.undoLog = undo;
    let result: T;
    try {
      result = change(this.transaction);
    } catch (error) {
      // A change that fails half-way (e.g. a rule error after auto-creating a term) leaves no trace.
      for (const step of undo.reverse()) step();
      throw error;
    } finally {
      this.undoLog = null;
    }
    await this.commit();
    return result;
  }

  /** Records how to take back one step of the running change. */
  private undoable(step: () => void) {
    this.undoLog?.push(step);
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
    putEvent: (event) => {
      const previous = this.events.get(event.id);
      this.indexEvent(event);
      this.undoable(() => {
        if (previous) this.indexEvent(previous);
        else this.unindexEvent(event);
      });
    },
    putVenue: (venue) => {
      const previous = this.venues.put(venue);
      this.undoable(() => this.restoreIn(this.venues, venue.id, previous));
    },
    putOrganizer: (organizer) => {
      const previous = this.organizers.put(organizer);
      this.undoable(() => this.restoreIn(this.organizers, organizer.id, previous));
    },
    putTerm: (term) => {
      const previous = this.terms.put(term);
      this.undoable(() => this.restoreIn(this.terms, term.id, previous));
    },
    deleteTerm: (id) => {
      const previous = this.terms.delete(id);
      if (previous) this.undoable(() => this.terms.put(previous));
    },
    putMedia: (media) => {
      const previous = this.media.put(media);
      this.undoable(() => this.restoreIn(this.media, media.id, previous));
    },
    putUser: (user) => {
      const previous = this.users.put(user);
      this.undoable(() => this.restoreIn(this.users, user.id, previous));
    },
    putToken: (token) => {
      const previous = this.tokens.get(token.id);
      this.tokens.set(token.id, token);
      this.undoable(() => {
        if (previous) this.tokens.set(token.id, previous);
        else this.tokens.delete(token.id);
      });
    },
    deleteToken: (id) => {
      const previous = this.tokens.get(id);
      this.tokens.delete(id);
      if (previous) this.undoable(() => this.tokens.set(id, previous));
    },
    setSettings: (settings) => {
      const previous = this.settings;
      this.settings = settings;
      this.undoable(() => (this.settings = previous));
    },
  };

  /** Resolves when everything changed so far is on disk. Changes made meanwhile join the next write. */
  private commit(): Promise<void> {
    const batch = this.pendingBatch ?? this.openBatch();
    if (!this.writing) this.writing = this.writeLoop();
    return batch.promise;
  }

  private openBatch() {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.pendingBatch = { promise, resolve, reject };
    return this.pendingBatch;
  }

  private async writeLoop(): Promise<void> {
    while (this.pendingBatch) {
      const batch = this.pendingBatch;
      this.pendingBatch = null;
      const snapshot = this.snapshot();
      try {
        this.db.data = snapshot;
        await this.db.write();
        this.durable = snapshot;
        batch.resolve();
      } catch (error) {
        // What is on disk is the truth: drop every change not yet written (this batch and the changes made
        // while it was being written), and fail all their callers. Restoring from the last written snapshot
        // is synchronous, so no request can slip a change in between.
        const failure = new StorageUnavailableError(
          `Could not write the calendar: ${(error as Error).message}`,
        );
        const next = this.pendingBatch as typeof batch | null;
        this.pendingBatch = null;
        // Reads may have seen the unwritten records' ids: the counters never go back, so no id is reused.
        const counters = this.counters;
        this.hydrate(this.durable);
        this.counters = {
          post: Math.max(counters.post, this.counters.post),
          term: Math.max(counters.term, this.counters.term),
          user: Math.max(counters.user, this.counters.user),
        };
        this.db.data = this.durable;
        batch.reject(failure);
        next?.reject(failure);
      }
    }
    this.writing = null;
  }

  /** Waits for pending writes, then releases the folder. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writing;
    await this.lock?.release();
  }
}
