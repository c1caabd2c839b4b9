/** Records by id, and optionally by a unique secondary key (the slug), kept in insertion order. */
export class Collection<T extends { id: number }> {
  private readonly byId = new Map<number, T>();
  private readonly byKey = new Map<string, number>();

  constructor(private readonly keyOf?: (record: T) => string) {}

  get size(): number {
    return this.byId.size;
  }

  get(id: number): T | undefined {
    return this.byId.get(id);
  }

  has(id: number): boolean {
    return this.byId.has(id);
  }

  getByKey(key: string): T | undefined {
    const id = this.byKey.get(key);
    return id === undefined ? undefined : this.byId.get(id);
  }

  hasKey(key: string): boolean {
    return this.byKey.has(key);
  }

  values(): IterableIterator<T> {
    return this.byId.values();
  }

  toArray(): T[] {
    return [...this.byId.values()];
  }

  /** Inserts or replaces; returns the previous version. */
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
