import { join } from 'node:path';
import { Low } from 'lowdb';
import { DurableJsonFile } from './durableJsonFile';
import { lockDataFolder, type FolderLock } from './lock';
import { Collection } from './collection';
import { EventIndex } from './eventIndex';
import {
  dataFileSchema,
  emptyDataFile,
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

export class DataFileInvalidError extends Error {
  readonly code = 'DATA_FILE_INVALID';
}

export interface OpenStoreOptions {
  dataDir: string;
  /** Settings of a brand-new data file. */
  initialSettings: Settings;
  /** Skip the single-owner lock (read-only inspection in tests). */
  lock?: boolean;
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
      const adapter = new DurableJsonFile<DataFile>(join(options.dataDir, DATA_FILE_NAME));
      const db = new Low<DataFile>(adapter, emptyDataFile(options.initialSettings));
      const store = new CalendarStore(options.dataDir, db, lock);
      await store.load(true);
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

  private async load(createIfMissing: boolean) {
    const fresh = this.db.data;
    await this.db.read();
    const exists = this.db.data !== fresh;
    if (!exists && !createIfMissing) throw new DataFileInvalidError('The data file disappeared.');
    const parsed = dataFileSchema.safeParse(this.db.data);
    if (!parsed.success) {
      throw new DataFileInvalidError(
        `The data file ${join(this.dataDir, DATA_FILE_NAME)} is not a valid Calendar Desk file: ` +
          parsed.error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
            .join('; '),
      );
    }
    this.hydrate(parsed.data);
    if (!exists) await this.db.write();
  }

  private hydrate(data: DataFile) {
    this.clear();
    this.settings = data.settings;
    this.counters = { ...data.counters };
    this.syncLinks = data.syncLinks;
    for (const event of data.events) this.indexEvent(event);
    for (const venue of data.venues) this.venues.put(venue);
    for (const organizer of data.organizers) this.organizers.put(organizer);
    for (const term of data.terms) this.terms.put(term);
    for (const media of data.media) this.media.put(media);
    for (const user of data.users) this.users.put(user);
    for (const token of data.tokens) this.tokens.set(token.id, token);
  }

  private clear() {
    for (const event of this.events.values()) this.eventIndex.update(event, undefined);
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
    if (previous) this.eventSlugs.delete(previous.slug);
    this.eventSlugs.set(event.slug, event.id);
    this.eventIndex.update(previous, event);
  }

  eventBySlug(slug: string): StoredEvent | undefined {
    const id = this.eventSlugs.get(slug);
    return id === undefined ? undefined : this.events.get(id);
  }

  /** The whole data file as it would be written now. */
  snapshot(): DataFile {
    return {
      schemaVersion: 1,
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
    const result = change(this.transaction);
    await this.commit();
    return result;
  }

  private readonly transaction: Transaction = {
    nextPostId: () => ++this.counters.post,
    nextTermId: () => ++this.counters.term,
    nextUserId: () => ++this.counters.user,
    putEvent: (event) => this.indexEvent(event),
    putVenue: (venue) => void this.venues.put(venue),
    putOrganizer: (organizer) => void this.organizers.put(organizer),
    putTerm: (term) => void this.terms.put(term),
    deleteTerm: (id) => void this.terms.delete(id),
    putMedia: (media) => void this.media.put(media),
    putUser: (user) => void this.users.put(user),
    putToken: (token) => void this.tokens.set(token.id, token),
    deleteToken: (id) => void this.tokens.delete(id),
    setSettings: (settings) => void (this.settings = settings),
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
      try {
        this.db.data = this.snapshot();
        await this.db.write();
        batch.resolve();
      } catch (error) {
        // What is on disk is the truth: drop every change not yet written, and fail all their callers.
        const failure = new StorageUnavailableError(
          `Could not write the calendar: ${(error as Error).message}`,
        );
        const next = this.pendingBatch as typeof batch | null;
        this.pendingBatch = null;
        batch.reject(failure);
        next?.reject(failure);
        await this.load(false).catch(() => undefined);
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
