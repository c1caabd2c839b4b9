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

  /** Puts the full record of a placeholder in its place (same id and key: nothing else changes). */
  fill(record: T): void {
    this.byId.set(record.id, record);
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
    const id = this.byKey.get(key);
    return id === undefined ? undefined : this.get(id);
  }

  hasKey(key: string): boolean {
    return this.byKey.has(key);
  }

  values(): IterableIterator<T> {
    this.placeholders?.readAll();
    return this.byId.values();
  }

  toArray(): T[] {
    return [...this.values()];
  }

  /** Inserts records with ids not in the collection yet (a start fills an empty one). */
  putNew(records: readonly T[]): void {
    for (let at = 0; at < records.length; at++) {
      const record = records[at]!;
      this.byId.set(record.id, record);
      if (this.keyOf) this.byKey.set(this.keyOf(record), record.id);
    }
  }

  /** Inserts or replaces; returns the previous version. (Placeholders are all read before any change.) */
  put(record: T): T | undefined {
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
    const previous = this.byId.get(id);
    if (!previous) return undefined;
    this.byId.delete(id);
    if (this.keyOf) this.byKey.delete(this.keyOf(previous));
    return previous;
  }
}
