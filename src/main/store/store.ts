import { join } from 'node:path';
import type { Adapter } from 'lowdb';
import { lockDataFolder, type FolderLock } from './lock';
import { removeAbandonedCopies } from './durableJsonFile';
import {
  explainRefusal,
  storageRefusalOf,
  StorageUnavailableError,
  type StorageRefusal,
} from './storageRefusal';
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
import { ChangeFeed, type TombstoneLimits } from './changeFeed';
import { CommitQueue } from './commitQueue';
import { EventIndex } from './eventIndex';
import { eventKeysOf, LazyEvents, placeholdersFrom } from './lazyEvents';
import { DeferredValue } from './chunkedJson';
import { LazyRecords } from './lazyRecords';
import { RawLines, type Lines } from './rawLines';
import { StringPool } from './stringPool';
import { UnreadPosts } from './unreadPosts';
import { FileLines } from './fileLines';
import { Transactions, type StoreOp, type StoreRecords, type Transaction } from './transaction';
import {
  changeFeedShapeSchema,
  dataFileSchema,
  dataFileShapeSchema,
  emptyDataFile,
  SCHEMA_VERSION,
  type ChangeFeedState,
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

export { DATA_FILE_NAME, StorageUnavailableError };
export type { Counters, StoreOp, Transaction } from './transaction';

/** The data file exists but is not a Calendar Desk file (not JSON, or not matching the schema). */
export class DataFileInvalidError extends Error {
  readonly code: string = 'DATA_FILE_INVALID';
}

/**
 * A record of a data file vouched for at the start cannot be read from it now (the disk damaged it since): the
 * calendar is read-only until a start checks the whole file. A 503 for requests that needed the record.
 */
export class RecordUnreadableError extends StorageUnavailableError {}

/**
 * Thrown (and caught) inside `readAfterLoading`: the read needs every record, or the links, while a start's
 * background loading has not finished them; it is run again once it has.
 */
class FullReadDeferred extends Error {}

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
  /** How long the change feed keeps deletions (default: store/changeFeed.ts). */
  tombstones?: TombstoneLimits;
}

/** Events indexed per slice of the background build (a few milliseconds of work). */
const INDEX_SLICE = 2000;
/** Event records read between two looks at the clock while a start's records are read in the background. */
const READ_SLICE = 50;
/**
 * How long the background reading of a start's records holds the event loop per turn: requests arriving
 * meanwhile wait this long at most (the target of issue 32 is a loop delay under 50 ms).
 */
const READ_SLICE_MS = 12;

/** The id of the empty feed standing in for one a start left unparsed (never seen: see startFeedFromText). */
const UNREAD_FEED_ID = '00000000-0000-4000-8000-000000000000';

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
  /** Which change each record is at, and recent deletions: `calendar-desk/v1/changes` reads it. */
  readonly changeFeed = new ChangeFeed();
  /** What the user should be told about this start (a restored backup, a discarded torn write, a migration). */
  readonly notices: string[] = [];
  /** The collections above and the values replaced whole: after `hydrate`, changed only by `transactions`. */
  private readonly records: StoreRecords = {
    events: this.events,
    eventSlugs: this.eventSlugs,
    eventIndex: this.eventIndex,
    venues: this.venues,
    organizers: this.organizers,
    terms: this.terms,
    media: this.media,
    users: this.users,
    tokens: this.tokens,
    settings: undefined as unknown as Settings, // set by load(), before the store is handed out
    counters: { post: 0, term: 0, user: 0 },
    syncLinks: {},
    changeFeed: this.changeFeed,
  };
  private readonly transactions = new Transactions(this.records);
  private readonly commits: CommitQueue;
  /** Bumped whenever the in-memory state changes (a change applied or undone): readers' cache key. */
  private changeCount = 0;
  private closed = false;
  /**
   * After a start from the data file's keys: the events whose records are not read yet (placeholders in the
   * collection and the listing, see LazyEvents). Reads hand out full records only; any change, any use of
   * the slugs or the links, and the background after the first answers read them all. Null once all are.
   */
  private lazy: LazyEvents | null = null;
  /** What `validate` found for such a start: the records' lines and the placeholders' term counts. */
  private lazyStart: {
    lines: Lines;
    publishedPerTerm: Map<number, number>;
    /** The placeholders' starts and ends in seconds, for exactly the array `placeholders`. */
    seconds: Float64Array;
    placeholders: StoredEvent[];
  } | null = null;
  /** Equal values of the events read at a start share one string (see StringPool); emptied once all are read. */
  private readonly stringPool = new StringPool();
  /** A data file of ours without the events' keys (an older version wrote it): written again soon. */
  private keysMissing = false;
  /** The venues and organizers a start left unread, read when first used (see UnreadPosts). */
  private readonly lazyPosts = new UnreadPosts((kind, id, error) =>
    this.damagedAfterStart(`the record of ${kind} ${id}`, error),
  );
  /** The change feed's text that `validate` left unparsed (see ChangeFeed.resetLater), for `hydrate`. */
  private changeFeedStart: DeferredValue | null = null;
  /** What `validate` found for such a start: the records of each kind, as placeholders. */
  private lazyPostsStart: {
    venues?: LazyRecords<StoredVenue>;
    organizers?: LazyRecords<StoredOrganizer>;
  } = {};
  /** Set once a record turned out unreadable: the fingerprint being removed (see damagedAfterStart). */
  private distrusting: Promise<void> = Promise.resolve();
  private allRead: Promise<void> = Promise.resolve();
  private markAllRead: () => void = () => undefined;
  /** The background reading of a start's records under way (see readInSlices), or null. */
  private reading: Promise<void> | null = null;
  /**
   * Set while changes wait for that reading (see mutate): later changes wait behind them, in their order.
   * Null otherwise, so that a change is applied at once, as callers expect, when nothing is left to read.
   */
  private writeGate: Promise<void> | null = null;
  private closing = false;
  /** Set while a read runs inside `readAfterLoading`: reading everything at once is refused then. */
  private deferFullReads = false;

  private constructor(
    readonly dataDir: string,
    private readonly persistence: Persistence<StoreOp>,
    private readonly lock: FolderLock | null,
    tombstoneLimits?: TombstoneLimits,
  ) {
    if (tombstoneLimits) this.changeFeed.limits = tombstoneLimits;
    this.eventIndex.beforeFullBuild = () => {
      if (this.deferFullReads) throw new FullReadDeferred();
    };
    this.commits = new CommitQueue({
      dataDir,
      persistence,
      snapshot: () => this.fileSnapshot(),
      snapshotLater: () => this.fileSnapshotLater(),
      counters: () => this.records.counters,
      takeBack: (undo) => {
        this.transactions.takeBack(undo);
        this.changeCount++;
      },
      reportTrouble: (message) => this.reportTrouble(message),
    });
  }

  get settings(): Settings {
    return this.records.settings;
  }

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
    const store = new CalendarStore(
      options.dataDir,
      new ReadOnlyPersistence<StoreOp>(options.dataDir),
      null,
      options.tombstones,
    );
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
    try {
      return await CalendarStore.openWritableOnce(options);
    } catch (error) {
      // A record unreadable while the journal was replayed: the file is no longer vouched for, so it is
      // checked whole this time (and replaced by the newest good backup if it is damaged).
      if (!(error instanceof RecordUnreadableError)) throw error;
      return CalendarStore.openWritableOnce(options);
    }
  }

  private static async openWritableOnce(options: OpenStoreOptions): Promise<CalendarStore> {
    const lock = options.lock === false ? null : await lockDataFolder(options.dataDir);
    const persistence =
      options.persistence ??
      (options.adapter
        ? new SnapshotPersistence<StoreOp>(options.adapter)
        : new JournaledPersistence<StoreOp>(options.dataDir, options.journal));
    let store: CalendarStore | undefined;
    try {
      // Ours now: a snapshot a crash interrupted (as big as the calendar) must not pile up over the crashes.
      if (lock) await removeAbandonedCopies(options.dataDir, () => true);
      store = new CalendarStore(options.dataDir, persistence, lock, options.tombstones);
      const replayed = await store.load(options.initialSettings);
      // Batches replayed from the journal are folded into the data file in the background, right away.
      if (replayed) store.commits.compactNow();
      return store;
    } catch (error) {
      // The data file the events were being read from is let go too (a retry opens it again).
      store?.lazy?.close();
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
    this.startFromKeys(raw, trusted && version === SCHEMA_VERSION);
    this.startPostsFromLines(raw, trusted && version === SCHEMA_VERSION);
    this.startFeedFromText(raw, trusted && version === SCHEMA_VERSION);
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

  /**
   * A data file read with its events' lines left unparsed (persistence.ts, RAW_ARRAY): started from its
   * events' keys when it is trusted, current and has them; otherwise every line is parsed now.
   */
  private startFromKeys(raw: { events?: unknown; eventKeys?: unknown }, trustedAndCurrent: boolean) {
    this.lazyStart = null;
    this.keysMissing = false;
    const lines = raw.events;
    if (!(lines instanceof RawLines || lines instanceof FileLines)) return;
    const fromKeys = trustedAndCurrent ? placeholdersFrom(raw.eventKeys, lines.length) : null;
    if (fromKeys) {
      raw.events = fromKeys.events;
      const { events, publishedPerTerm, seconds } = fromKeys;
      this.lazyStart = { lines, publishedPerTerm, seconds, placeholders: events };
      return;
    }
    raw.events = lines.parseAll();
    this.keysMissing = trustedAndCurrent && raw.eventKeys === undefined && lines.length > 0;
  }

  /**
   * The venues and organizers of a data file read with their lines left unparsed: placeholders by the ids the
   * lines start with when it is trusted and current, each record read when first used; otherwise parsed now.
   */
  private startPostsFromLines(raw: { venues?: unknown; organizers?: unknown }, trustedAndCurrent: boolean) {
    const lazily = <T extends { id: number }>(lines: unknown, kind: string) => {
      if (!(lines instanceof RawLines)) return { records: lines };
      const lazy = trustedAndCurrent ? LazyRecords.byLeadingIds<T>(lines, kind) : null;
      return lazy ? { records: lazy.placeholders, lazy } : { records: lines.parseAll() };
    };
    const venues = lazily<StoredVenue>(raw.venues, 'venue');
    const organizers = lazily<StoredOrganizer>(raw.organizers, 'organizer');
    raw.venues = venues.records;
    raw.organizers = organizers.records;
    this.lazyPostsStart = { venues: venues.lazy, organizers: organizers.lazy };
  }

  /**
   * The change feed of a data file read with its text left unparsed: parsed when first used (a change, a sync,
   * the reading between requests) when the file is trusted and current, now otherwise. Until `hydrate`, the
   * document holds an empty feed in its place, which the check of its shape passes.
   */
  private startFeedFromText(raw: { changeFeed?: unknown }, trustedAndCurrent: boolean) {
    this.changeFeedStart = null;
    if (!(raw.changeFeed instanceof DeferredValue)) return;
    if (!trustedAndCurrent) {
      raw.changeFeed = raw.changeFeed.parse();
      return;
    }
    this.changeFeedStart = raw.changeFeed;
    raw.changeFeed = {
      id: UNREAD_FEED_ID,
      seq: 0,
      horizon: 0,
      live: { seqs: [], kinds: '', ids: [] },
      tombstones: [],
    } satisfies ChangeFeedState;
  }

  /** The change feed `startFeedFromText` left unparsed, parsed and checked (a damaged one is reported). */
  private changeFeedOf(text: DeferredValue): ChangeFeedState {
    try {
      const parsed = changeFeedShapeSchema.safeParse(text.parse());
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'not a change feed');
      return parsed.data;
    } catch (error) {
      throw this.damagedAfterStart('the change feed', error as Error);
    }
  }

  /**
   * Reads the data file and replays newer journal batches; a new folder gets an empty calendar on disk.
   * True when replayed batches are still to be folded into the data file.
   */
  private async load(initialSettings: Settings): Promise<boolean> {
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
    this.commits.seq = base.journalSeq;
    if (loaded.entries.length > 0) {
      try {
        this.readAllRecords();
      } catch (error) {
        await this.distrusting;
        throw error;
      }
    }
    for (const entry of loaded.entries) {
      for (const op of entry.ops) this.transactions.replay(op);
      this.commits.seq = entry.seq;
    }
    if (this.migrated.length > 0) {
      this.notices.push(`The data file was upgraded to schema version ${SCHEMA_VERSION}.`);
    }
    if (!loaded.base || this.migrated.length > 0) {
      await this.persistence.writeSnapshot(this.fileSnapshot());
      return false;
    }
    // Fold the replayed batches into the data file soon (and give a file of an older version its events'
    // keys), without delaying the start.
    return loaded.entries.length > 0 || this.keysMissing;
  }

  private hydrate(data: DataFile) {
    this.clear();
    this.records.settings = data.settings;
    this.records.counters = { ...data.counters };
    this.records.syncLinks = data.syncLinks;
    const feedText = this.changeFeedStart;
    this.changeFeedStart = null;
    if (feedText) this.changeFeed.resetLater(() => this.changeFeedOf(feedText));
    else this.changeFeed.reset(data.changeFeed);
    const lazyStart = this.lazyStart;
    this.lazyStart = null;
    if (lazyStart) {
      // Placeholders: the slugs are known once the records are read (finishReading).
      this.events.putNew(data.events);
      // The seconds hold only if the validated array has the very placeholders, in order (the outline's check
      // passes the array on as it is; a migration may have made another).
      const { placeholders } = lazyStart;
      const same =
        data.events === placeholders ||
        (data.events.length === placeholders.length &&
          data.events.every((event, at) => event === placeholders[at]));
      const seconds = same ? lazyStart.seconds : undefined;
      this.eventIndex.reset(data.events, lazyStart.publishedPerTerm, seconds);
      this.lazy = new LazyEvents(lazyStart.lines, data.events);
      this.events.holdPlaceholders({
        isPlaceholder: (event) => this.lazy?.isPlaceholder(event) ?? false,
        read: (placeholder) => this.readEvent(placeholder),
        readAll: () => this.readAllEvents(),
      });
      this.eventIndex.beforeLinks = () => this.readAllEvents();
      this.allRead = new Promise((resolve) => (this.markAllRead = resolve));
    } else {
      for (const event of data.events) {
        this.stringPool.internEvent(event);
        this.events.put(event);
        this.eventSlugs.set(event.slug, event.id);
      }
      this.stringPool.clear();
      this.eventIndex.reset(data.events);
    }
    // Placeholders only when the validated arrays are the very ones made for them (a migration makes others).
    const postsStart = this.lazyPostsStart;
    this.lazyPostsStart = {};
    if (postsStart.venues?.placeholders === data.venues) this.lazyPosts.hold(this.venues, postsStart.venues);
    else for (const venue of data.venues) this.venues.put(venue);
    if (postsStart.organizers?.placeholders === data.organizers)
      this.lazyPosts.hold(this.organizers, postsStart.organizers);
    else for (const organizer of data.organizers) this.organizers.put(organizer);
    for (const term of data.terms) this.terms.put(term);
    for (const media of data.media) this.media.put(media);
    for (const user of data.users) this.users.put(user);
    for (const token of data.tokens) this.tokens.set(token.id, token);
  }

  /** The record of a placeholder, read from its line and put in its place everywhere. */
  private readEvent(placeholder: StoredEvent): StoredEvent {
    const lazy = this.lazy!;
    let record: StoredEvent;
    try {
      record = lazy.parse(placeholder);
      this.stringPool.internEvent(record);
      // First, as it may fail: nothing is changed until it did not.
      this.eventIndex.replacePlaceholder(placeholder, record);
    } catch (error) {
      throw this.damagedAfterStart(`the record of event ${placeholder.id}`, error as Error);
    }
    this.events.fill(record);
    // Here rather than all at once when the last is read: that would hold the event loop for 100,000 slugs.
    this.eventSlugs.set(record.slug, record.id);
    lazy.done(placeholder);
    if (lazy.size === 0) this.finishReading();
    return record;
  }

  /**
   * A record that cannot be read from the data file vouched for at the start (the disk damaged it since it was
   * written): nothing may be changed, since the next data file would lack the record, and the next start
   * checks the whole file (restoring the last backup if it is damaged).
   */
  private damagedAfterStart(what: string, error: Error): RecordUnreadableError {
    const file = join(this.dataDir, DATA_FILE_NAME);
    const problem = `${what} in ${file} cannot be read (${error.message})`;
    const todo =
      'restart Calendar Desk: it checks the whole file and restores the last backup if it is damaged';
    // Closed: the data file was let go (see close), which says nothing of its bytes.
    if (this.closed) return new RecordUnreadableError(`The calendar is closed: ${problem}.`);
    if (!this.readOnly) {
      this.readOnly = `${problem}; ${todo}`;
      console.error(`calendar-desk: ${problem}`);
      this.notices.push(`Read-only: ${problem}. Changes are refused until then; ${todo}.`);
      this.distrusting = this.persistence.distrustDataFile?.() ?? Promise.resolve();
    }
    return new RecordUnreadableError(`The data file is damaged: ${problem}. Nothing was changed; ${todo}.`);
  }

  /** Reads up to `count` more records of placeholders; true once every record is read. */
  private readSomeEvents(count: number): boolean {
    for (let read = 0; read < count && this.lazy; read++) {
      const placeholder = this.lazy.nextPending();
      if (placeholder) this.readEvent(placeholder);
      else this.finishReading();
    }
    return this.lazy === null;
  }

  /** Reads every record still to be read (see `lazy`): a no-op once they all are. */
  readAllEvents(): void {
    if (this.deferFullReads && this.lazy) throw new FullReadDeferred();
    this.readSomeEvents(Infinity);
  }

  /** Reads every record a start left unread, events, venues and organizers. */
  private readAllRecords(): void {
    this.readAllEvents();
    this.lazyPosts.readSome(Infinity);
    this.changeFeed.prepare();
  }

  /** Whether a start left records unread. */
  private get recordsUnread(): boolean {
    return this.lazy !== null || this.lazyPosts.size > 0;
  }

  /** Whether a start left records or the change feed unread. */
  private get someUnread(): boolean {
    return this.recordsUnread || this.changeFeed.unread;
  }

  /** Reads up to `count` more records a start left unread, events first; true once every record is read. */
  private readSomeRecords(count: number): boolean {
    const eventsLeft = this.lazy?.size ?? 0;
    if (!this.readSomeEvents(count)) return false;
    return this.lazyPosts.readSome(count - Math.min(count, eventsLeft));
  }

  /** How many venues' and organizers' records a start left to read (0 once all are). */
  get unreadLinkedPosts(): number {
    return this.lazyPosts.size;
  }

  /** How many events' records a start from the data file's keys left to read (0 once all are). */
  get unreadEvents(): number {
    return this.lazy?.size ?? 0;
  }

  /** Resolves once every event's record is read (at once, unless a start left some to read). */
  allEventsRead(): Promise<void> {
    return this.allRead;
  }

  private finishReading() {
    this.stringPool.clear();
    this.lazy = null;
    this.events.holdPlaceholders(null);
    this.eventIndex.beforeLinks = null;
    // The slugs were recorded as the records were read (readEvent): nothing changes while some are unread.
    // The links are built from the records, never from placeholders.
    this.eventIndex.useRecords((id) => this.events.get(id)!);
    this.markAllRead();
  }

  private clear() {
    this.stringPool.clear();
    this.lazy = null;
    this.lazyPosts.clear();
    this.events.holdPlaceholders(null);
    this.eventIndex.beforeLinks = null;
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

  eventBySlug(slug: string): StoredEvent | undefined {
    this.readAllEvents();
    const id = this.eventSlugs.get(slug);
    return id === undefined ? undefined : this.events.get(id);
  }

  /** One entry of the sync engine's state (`undefined` when absent). */
  syncState(key: string): unknown {
    return this.records.syncLinks[key];
  }

  /** Keys of the sync engine's state that start with `prefix`. */
  syncKeys(prefix: string): string[] {
    return Object.keys(this.records.syncLinks).filter((key) => key.startsWith(prefix));
  }

  /** The whole data file as it would be written now. */
  snapshot(): DataFile {
    return this.snapshotLater()();
  }

  /**
   * The data file as it is now, made whole when the answer is called (see ChangeFeed.stateLater): the records
   * are read now (they are never changed in place), the parts made from them later.
   */
  private snapshotLater(): () => DataFile {
    const changeFeed = this.changeFeed.stateLater();
    const data: Omit<DataFile, 'changeFeed'> = {
      schemaVersion: SCHEMA_VERSION,
      journalSeq: this.commits.seq,
      counters: { ...this.records.counters },
      settings: this.records.settings,
      events: this.events.toArray(),
      venues: this.venues.toArray(),
      organizers: this.organizers.toArray(),
      terms: this.terms.toArray(),
      media: this.media.toArray(),
      users: this.users.toArray(),
      tokens: [...this.tokens.values()],
      syncLinks: { ...this.records.syncLinks },
    };
    return () => ({ ...data, changeFeed: changeFeed() });
  }

  /** The snapshot as the data file holds it: with the events' keys a start begins from (see EventKeys). */
  private fileSnapshot(): DataFile {
    return this.fileSnapshotLater()();
  }

  /** {@link fileSnapshot} of now, made whole when the answer is called (a compaction: see snapshotLater). */
  private fileSnapshotLater(): () => DataFile {
    const data = this.snapshotLater();
    const publishedPerTerm = [...this.eventIndex.termCounts()];
    return () => {
      const file = data();
      const eventKeys = eventKeysOf(file.events, publishedPerTerm);
      return eventKeys ? ({ ...file, eventKeys } as DataFile) : file;
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
    if (this.someUnread || this.writeGate) {
      // Soon after a start from the keys: reading every record now, in one piece, would stall every request
      // for most of a second at 100,000 events. The change waits for the reading between requests instead
      // (it is not acknowledged before it is applied and durable, so nothing is lost by waiting).
      this.writeGate ??= this.readInSlices().then(() => {
        this.writeGate = null;
      });
      await this.writeGate;
      this.assertWritable();
    }
    // A change may read or replace any record: none may be a placeholder (a damaged record throws here).
    this.readAllRecords();
    const { result, ops, undo } = this.transactions.run(change);
    if (ops.length === 0) return result;
    this.changeCount++;
    await this.commits.add(ops, undo);
    return result;
  }

  /**
   * Reads, between requests, the records a start left unread (see `lazy`), then builds the indexes it left
   * out (see EventIndex): a slice of events per turn of the event loop, so that requests arriving meanwhile
   * wait for one slice at most. Settles once they are built (or the store closed).
   */
  completeIndexesSoon(): Promise<void> {
    return this.readInSlices().then(
      () =>
        new Promise((resolve) => {
          const step = () => {
            if (this.closed || this.lazy) resolve();
            else if (this.eventIndex.buildSome(INDEX_SLICE)) {
              // The change feed's map too (~10 ms at 100,000 events), in a turn of its own rather than in the
              // first write's.
              setImmediate(() => {
                try {
                  if (!this.closed) this.changeFeed.prepare();
                } catch {
                  // A damaged change feed: reported (damagedAfterStart), and whatever uses it gets the error.
                }
                resolve();
              });
            } else setImmediate(step);
          };
          setImmediate(step);
        }),
    );
  }

  /**
   * Reads the records a start left unread, for about READ_SLICE_MS per turn of the event loop. Settles once
   * they are all read, or the store closed, or a record turned out damaged (reported by damagedAfterStart;
   * the rest stays unread, and whatever needs it gets the error). One reading at a time, shared.
   */
  private readInSlices(): Promise<void> {
    if (!this.someUnread) return Promise.resolve();
    this.reading ??= new Promise<void>((resolve) => {
      const step = () => {
        try {
          const until = performance.now() + READ_SLICE_MS;
          if (this.recordsUnread) {
            while (!this.closed && this.recordsUnread && performance.now() < until)
              this.readSomeRecords(READ_SLICE);
          }
          // The change feed last, in a turn of its own (~30 ms at 100,000 events; its map in another one, see
          // completeIndexesSoon).
          else if (!this.closed) this.changeFeed.load();
        } catch {
          this.reading = null;
          resolve();
          return;
        }
        if (!this.closed && this.someUnread) {
          setImmediate(step);
          return;
        }
        this.reading = null;
        resolve();
      };
      setImmediate(step);
    });
    return this.reading;
  }

  /**
   * Runs the read `build`; if it needs every record (a search, a filter, slugs…) or the links while a start's
   * background loading has not finished them, it is not done in one piece there (most of a second at 100,000
   * events, during which no request is answered): the read waits for the loading, done between requests
   * (completeIndexesSoon), and runs again. `build` must change nothing before it reads (a read).
   */
  async readAfterLoading<T>(build: () => T | Promise<T>): Promise<T> {
    if (!this.lazy && !this.eventIndex.linksPending) return build();
    let first: T | Promise<T>;
    this.deferFullReads = true;
    try {
      first = build();
    } catch (error) {
      first = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.deferFullReads = false;
    }
    try {
      return await first;
    } catch (error) {
      if (!(error instanceof FullReadDeferred)) throw error;
    }
    await this.completeIndexesSoon();
    // Every read deferred meanwhile resumes now: one per turn of the event loop, not all in one.
    await this.ownTurn();
    return build();
  }

  /** Reads waiting for a turn of their own (see ownTurn), first come first served. */
  private readonly turnsWaiting: Array<() => void> = [];

  /** Resolves in a turn of the event loop of its own (none shared with another caller of ownTurn). */
  private ownTurn(): Promise<void> {
    return new Promise((resolve) => {
      this.turnsWaiting.push(resolve);
      if (this.turnsWaiting.length > 1) return;
      const next = () => {
        this.turnsWaiting.shift()!();
        if (this.turnsWaiting.length > 0) setImmediate(next);
      };
      setImmediate(next);
    });
  }

  /** Resolves once every change applied in memory so far is on disk, or was taken back (its write failed). */
  settled(): Promise<void> {
    return this.commits.settled();
  }

  /**
   * The answer of a read (or the error it ends in), handed out once every change it may show is on disk: no
   * reader ever sees a change that a crash could still take back. If a write failed meanwhile (its change
   * was taken back), the answer is built again without it; a second failure is a StorageUnavailableError.
   */
  async readSettled<T>(build: () => T | Promise<T>): Promise<T> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const failuresBefore = this.commits.failures;
      let outcome: { value: T } | { error: unknown };
      try {
        outcome = { value: await build() };
      } catch (error) {
        outcome = { error };
      }
      await this.settled();
      if (this.commits.failures === failuresBefore) {
        if ('error' in outcome) throw outcome.error;
        return outcome.value;
      }
    }
    throw new StorageUnavailableError('The calendar could not be written just now; try again.');
  }

  /** Resolves once no commit and no background folding is under way. */
  async idle(): Promise<void> {
    while (this.writeGate) await this.writeGate;
    return this.commits.idle();
  }

  /** Trouble in background work: logged, and kept as a notice the app can show. */
  private reportTrouble(message: string) {
    console.error(`calendar-desk: ${message}`);
    this.notices.push(`Background save problem: ${message}. Nothing is lost; it is retried.`);
  }

  /** Waits for pending writes, folds the journal into the data file, then releases the folder. */
  async close(): Promise<void> {
    if (this.closed || this.closing) return;
    this.closing = true;
    // Changes waiting for a start's records (see mutate) are applied and written first: they were accepted.
    while (this.writeGate) await this.writeGate;
    this.closed = true;
    await this.distrusting;
    try {
      await this.commits.close();
    } finally {
      // Records never read: the data file they are in is let go (the next start reads them).
      this.lazy?.close();
      await this.persistence.close();
      await this.lock?.release();
    }
  }
}
