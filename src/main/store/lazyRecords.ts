import type { Lines, RawLines } from './rawLines';

/** A stand-in for a record not read yet: what the collection needs (its id) and the line it is on. */
export interface Placeholder {
  id: number;
  placeholderLine: number;
}

/**
 * The records of one collection a start left unread, each in the collection as a placeholder (its id only)
 * until it is first used: its line is then parsed and checked against the placeholder. Nothing may change the
 * collection while placeholders remain (the store reads them all before any change).
 */
export class LazyRecords<T extends { id: number }> {
  /** 1 for each line whose record is still to be read (a placeholder knows its line): no map of 100,000. */
  private readonly unread: Uint8Array;
  private unreadCount: number;
  /** Where the next `nextPending` looks from: placeholders before it are all read. */
  private cursor = 0;

  /** `kind` names the records in errors (`venue 12`). */
  constructor(
    protected readonly lines: Lines,
    readonly placeholders: readonly T[],
    readonly kind: string,
  ) {
    this.unread = new Uint8Array(placeholders.length).fill(1);
    this.unreadCount = placeholders.length;
  }

  /**
   * Placeholders for the records on `lines`, by the id each line starts with; null when a line does not start
   * with an id or two lines have the same one (read them all now: the file is not quite as the store writes).
   */
  static byLeadingIds<T extends { id: number }>(lines: RawLines, kind: string): LazyRecords<T> | null {
    const placeholders = new Array<Placeholder>(lines.length);
    const seen = new Set<number>();
    for (let line = 0; line < lines.length; line++) {
      const id = lines.leadingId(line);
      if (id === undefined || seen.has(id)) return null;
      seen.add(id);
      placeholders[line] = { id, placeholderLine: line };
    }
    return new LazyRecords<T>(lines, placeholders as unknown as T[], kind);
  }

  get size(): number {
    return this.unreadCount;
  }

  /** The line of `record` when it is a placeholder still to be read, else undefined. */
  private lineOf(record: T): number | undefined {
    const line = (record as Partial<Placeholder>).placeholderLine;
    return line !== undefined && this.unread[line] === 1 && this.placeholders[line] === record
      ? line
      : undefined;
  }

  /** Whether `record` is a placeholder whose record is still to be read. */
  isPlaceholder(record: T): boolean {
    return this.lineOf(record) !== undefined;
  }

  /** The next placeholder still to be read, in the data file's order (undefined when all are). */
  nextPending(): T | undefined {
    while (this.cursor < this.placeholders.length) {
      if (this.unread[this.cursor] === 1) return this.placeholders[this.cursor];
      this.cursor++;
    }
    return undefined;
  }

  /** The record of `placeholder`, parsed from its line and checked against it (still pending: see `done`). */
  parse(placeholder: T): T {
    const line = this.lineOf(placeholder);
    if (line === undefined)
      throw new Error(`${this.kind} ${placeholder.id} is not a placeholder still to be read`);
    const record = this.lines.parse(line) as T;
    if (record === null || typeof record !== 'object' || !this.agrees(record, placeholder))
      throw new Error(`the data file's line for ${this.kind} ${placeholder.id} does not match its keys`);
    return record;
  }

  /** Whether a parsed record is the one its placeholder stood for. */
  protected agrees(record: T, placeholder: T): boolean {
    return record.id === placeholder.id;
  }

  /** `placeholder`'s record is in its place everywhere: it is no longer pending. */
  done(placeholder: T): void {
    const line = this.lineOf(placeholder);
    if (line === undefined) return;
    this.unread[line] = 0;
    if (--this.unreadCount === 0) this.close();
  }

  /** Lets go of the data file the lines are read from (all read, or the store closes first). */
  close(): void {
    this.lines.close?.();
  }
}
