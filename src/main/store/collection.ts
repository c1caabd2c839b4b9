/** Stand-ins for records not read yet (see LazyEvents): a read of one reads its record first. */
export interface Placeholders<T> {
  isPlaceholder(record: T): boolean;
  /** The record of `placeholder`, now in the collection in its place. */
  read(placeholder: T): T;
  readAll(): void;
}

/** Records by id, and optionally by a unique secondary key (the slug), kept in insertion order. */
export class Collection<T extends { id: number }> {
  private readonly byId = new Map<number, T>();
  private readonly byKey = new Map<string, number>();
  private placeholders: Placeholders<T> | null = null;

  constructor(private readonly keyOf?: (record: T) => string) {}

  /** While some records are placeholders (null once none is): every read hands out full records only. */
  holdPlaceholders(placeholders: Placeholders<T> | null): void {
    this.placeholders = placeholders;
  }

  /** Puts the full record of a placeholder in its place (same id: nothing else changes but its key). */
  fill(record: T): void {
    this.byId.set(record.id, record);
    if (this.keyOf) this.byKey.set(this.keyOf(record), record.id);
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: number): T | undefined {
    const record = this.byId.get(id);
    if (record !== undefined && this.placeholders?.isPlaceholder(record))
      return this.placeholders.read(record);
    return record;
  }

  has(id: number): boolean {
    return this.byId.has(id);
  }

  getByKey(key: string): T | undefined {
    this.readKeys();
    const id = this.byKey.get(key);
    return id === undefined ? undefined : this.get(id);
  }

  hasKey(key: string): boolean {
    this.readKeys();
    return this.byKey.has(key);
  }

  /** A placeholder's key is known once its record is read (see `fill`): a lookup by key reads them all. */
  private readKeys(): void {
    if (this.keyOf) this.placeholders?.readAll();
  }

  values(): IterableIterator<T> {
    this.placeholders?.readAll();
    return this.byId.values();
  }

  toArray(): T[] {
    return [...this.values()];
  }

  /**
   * Inserts records with ids not in the collection yet (a start fills an empty one). Placeholders (see
   * `holdPlaceholders`) get their keys when their records are read.
   */
  putNew(records: readonly T[], placeholders = false): void {
    for (let at = 0; at < records.length; at++) {
      const record = records[at]!;
      this.byId.set(record.id, record);
      if (this.keyOf && !placeholders) this.byKey.set(this.keyOf(record), record.id);
    }
  }

  /** Inserts or replaces; returns the previous version. Placeholders must all be read before any change. */
  put(record: T): T | undefined {
    this.assertNoPlaceholders();
    const previous = this.byId.get(record.id);
    if (previous && this.keyOf) this.byKey.delete(this.keyOf(previous));
    this.byId.set(record.id, record);
    if (this.keyOf) this.byKey.set(this.keyOf(record), record.id);
    return previous;
  }

  clear(): void {
    this.byId.clear();
    this.byKey.clear();
  }

  delete(id: number): T | undefined {
    this.assertNoPlaceholders();
    const previous = this.byId.get(id);
    if (!previous) return undefined;
    this.byId.delete(id);
    if (this.keyOf) this.byKey.delete(this.keyOf(previous));
    return previous;
  }

  /** A change while placeholders remain would be undone when they are read: the store reads them first. */
  private assertNoPlaceholders(): void {
    if (this.placeholders) throw new Error('a collection is changed while some of its records are unread');
  }
}
