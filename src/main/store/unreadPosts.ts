import type { Collection } from './collection';
import type { LazyRecords } from './lazyRecords';

interface Held<T extends { id: number }> {
  collection: Collection<T>;
  lazy: LazyRecords<T>;
}

/**
 * The venues and organizers a start left unread (their lines kept as read, see LazyRecords): each collection
 * holds placeholders that read their record when first used; the store reads the rest between requests and
 * before any change. A line that cannot be read any more is reported by `damaged`.
 */
export class UnreadPosts {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- venues or organizers: each entry pairs a collection with its own lines
  private held: Array<Held<any>> = [];

  constructor(private readonly damaged: (kind: string, id: number, error: Error) => Error) {}

  /** Puts `lazy`'s placeholders in the empty `collection`, each read when first used. */
  hold<T extends { id: number }>(collection: Collection<T>, lazy: LazyRecords<T>): void {
    const entry: Held<T> = { collection, lazy };
    collection.putNew(lazy.placeholders, true);
    if (lazy.size === 0) return;
    this.held.push(entry);
    collection.holdPlaceholders({
      isPlaceholder: (record) => lazy.isPlaceholder(record),
      read: (placeholder) => this.read(entry, placeholder),
      readAll: () => this.readSomeOf(entry, Infinity),
    });
  }

  /** How many records are still to be read. */
  get size(): number {
    return this.held.reduce((sum, entry) => sum + entry.lazy.size, 0);
  }

  /** Reads up to `count` more records; true once every record is read. */
  readSome(count: number): boolean {
    let left = count;
    for (const entry of [...this.held]) {
      const before = entry.lazy.size;
      this.readSomeOf(entry, left);
      left -= before - entry.lazy.size;
      if (left <= 0) break;
    }
    return this.held.length === 0;
  }

  /** Forgets every placeholder (the collections are being emptied). */
  clear(): void {
    for (const { collection } of this.held) collection.holdPlaceholders(null);
    this.held = [];
  }

  private readSomeOf<T extends { id: number }>(entry: Held<T>, count: number): void {
    for (let read = 0; read < count; read++) {
      const placeholder = entry.lazy.nextPending();
      if (!placeholder) return;
      this.read(entry, placeholder);
    }
  }

  private read<T extends { id: number }>(entry: Held<T>, placeholder: T): T {
    const { collection, lazy } = entry;
    let record: T;
    try {
      record = lazy.parse(placeholder);
    } catch (error) {
      throw this.damaged(lazy.kind, placeholder.id, error as Error);
    }
    collection.fill(record);
    lazy.done(placeholder);
    if (lazy.size === 0) {
      collection.holdPlaceholders(null);
      this.held = this.held.filter((held) => held !== entry);
    }
    return record;
  }
}
