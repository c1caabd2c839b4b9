import { journalEntry } from './journal';
import { JournaledPersistence, type Persistence } from './persistence';
import type { DataFile } from './schema';
import { describeWriteFailure, StorageUnavailableError } from './storageRefusal';
import type { Counters, StoreOp } from './transaction';

interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
  ops: StoreOp[];
  /** The JSON of each change's ops, made as it came (see journalEntry). */
  opsJson: string[];
  undo: (() => void)[];
}

/** What the queue needs of the store around it. */
export interface CommitQueueHost {
  readonly dataDir: string;
  readonly persistence: Persistence<StoreOp>;
  /** The whole state as it would be written now (its `journalSeq` is the queue's `seq`). */
  snapshot(): DataFile;
  /** The data file as it is now, made whole when the answer is called (in a later turn of the event loop). */
  snapshotLater(): () => DataFile;
  /** The id counters now: every batch ends with them, so a replay never hands out an id twice. */
  counters(): Counters;
  /** Takes the changes of failed batches back out of memory (undo steps oldest first, run last first). */
  takeBack(undo: (() => void)[]): void;
  /** Trouble in background work, which is retried: the store logs it and keeps it as a notice. */
  reportTrouble(message: string): void;
}

/**
 * Writes the changes applied in memory, one batch at a time (group commit): changes that arrive while a batch
 * is being written wait together as the next one. Each change's promise settles only when its batch is durably
 * in the journal; a failed write takes its changes (and those that came after them) back out of memory and
 * reports them all as failed. Between batches the journal is folded into the data file once it has grown.
 */
export class CommitQueue {
  /** Sequence number of the last batch that is durable. */
  seq = 0;
  private pendingBatch: Batch | null = null;
  /** Batches whose write failed (and were taken back) since the start: readers rebuild what they saw. */
  private failedCommits = 0;
  /** The batch being written right now. */
  private committing: Batch | null = null;
  private writing: Promise<void> | null = null;
  private compacting: Promise<void> | null = null;
  private compactSoon = false;
  private closed = false;

  constructor(private readonly host: CommitQueueHost) {}

  /** Adds one change (already applied in memory) to the next batch; settles when that batch is on disk. */
  add(ops: StoreOp[], undo: (() => void)[]): Promise<void> {
    const batch = this.pendingBatch ?? this.openBatch();
    // One by one: a spread passes each as an argument, and an import of long series overflows the stack with
    // its 100,000s of ops after the change was applied in memory (kept there, never written).
    for (const op of ops) batch.ops.push(op);
    batch.opsJson.push(ops.map((op) => JSON.stringify(op)).join(','));
    for (const step of undo) batch.undo.push(step);
    if (!this.writing) this.writing = this.writeLoop();
    return batch.promise;
  }

  /** Folds the journal into the data file in the background, right away (batches replayed at the start). */
  compactNow(): void {
    this.compactSoon = true;
    this.writing = this.writeLoop();
  }

  private openBatch(): Batch {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.pendingBatch = { promise, resolve, reject, ops: [], opsJson: [], undo: [] };
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
        if (
          !this.compacting &&
          !this.closed &&
          (this.compactSoon || this.host.persistence.needsCompaction())
        ) {
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
    const counters: StoreOp = { t: 'counters', v: { ...this.host.counters() } };
    batch.opsJson.push(JSON.stringify(counters));
    batch.ops.push(counters);
    const entry = journalEntry(this.seq + 1, batch.ops, `[${batch.opsJson.filter(Boolean).join(',')}]`);
    try {
      await this.host.persistence.commit(entry, () => ({ ...this.host.snapshot(), journalSeq: entry.seq }));
      this.seq = entry.seq;
      batch.resolve();
    } catch (error) {
      // Nothing of this batch is on disk: take it back out of memory, and the batch made while it was being
      // written too (it may build on it).
      this.failedCommits++;
      const failure = new StorageUnavailableError(
        `could not write the calendar: ${describeWriteFailure(error, this.host.dataDir)}`,
      );
      const next = this.pendingBatch;
      this.pendingBatch = null;
      // Oldest batch first, so running the steps last-first undoes the newest change first.
      this.host.takeBack([...batch.undo, ...(next?.undo ?? [])]);
      batch.reject(failure);
      next?.reject(failure);
    }
  }

  /**
   * Compaction: the state right now (nothing is pending, so it is exactly what the journal holds) goes to
   * the data file in the background while new batches go to a fresh journal.
   */
  private async startCompaction() {
    const snapshotNow = this.host.snapshotLater();
    try {
      await this.host.persistence.rotate(this.seq + 1);
    } catch (error) {
      // The current journal keeps taking batches; folding is tried again when it grows further.
      this.host.reportTrouble(`could not start a new journal: ${(error as Error).message}`);
      return;
    }
    // Made whole in a turn of its own: at 50,000 events that is tens of milliseconds (issue 26).
    this.compacting = new Promise<DataFile>((resolve) => setImmediate(() => resolve(snapshotNow())))
      .then((snapshot) => this.host.persistence.writeSnapshot(snapshot))
      .catch((error: Error) => {
        // The journal still holds everything: nothing is lost, the next compaction tries again.
        this.host.reportTrouble(`could not fold the journal into the data file: ${error.message}`);
      })
      .finally(() => {
        this.compacting = null;
      });
  }

  /** How many batches failed to be written (and were taken back) since the start. */
  get failures(): number {
    return this.failedCommits;
  }

  /** Resolves once every change applied in memory so far is on disk, or was taken back (its write failed). */
  async settled(): Promise<void> {
    const waiting = [this.committing?.promise, this.pendingBatch?.promise].filter((promise) => !!promise);
    if (waiting.length > 0) await Promise.allSettled(waiting);
  }

  /** Resolves once no commit and no background folding is under way. */
  async idle(): Promise<void> {
    while (this.writing || this.compacting) {
      await this.writing;
      await this.compacting;
    }
  }

  /** Waits for pending writes, then folds the journal into the data file; starts no further compaction. */
  async close(): Promise<void> {
    this.closed = true;
    await this.writing?.catch(() => undefined);
    await this.compacting;
    const persistence = this.host.persistence;
    if (persistence instanceof JournaledPersistence && persistence.hasJournal()) {
      const snapshot = this.host.snapshot();
      try {
        await persistence.rotate(this.seq + 1);
        await persistence.writeSnapshot(snapshot);
      } catch (error) {
        // The journal still holds every change: the next start replays it.
        this.host.reportTrouble(
          `could not fold the journal into the data file at shutdown: ${(error as Error).message}`,
        );
      }
    }
  }
}
