/**
 * Presented records kept as their JSON bytes, so that a list answer is assembled from ready parts instead of
 * being built and serialized record by record.
 *
 * An entry is valid while everything it was made from is the very same: its `sources` (the stored record,
 * the site settings, its image, a count...) are compared by identity. The store never changes a record in
 * place (every write puts a new object, an undo puts the old one back), so a change anywhere in what a part
 * shows makes it miss, and no version has to be kept in step by hand.
 *
 * Parts live in spaces (one per kind of part and set of addresses), by record id. Bounded by bytes: when
 * full, the oldest entries of the largest space go first, except those used since they were last looked at
 * (a second chance, which costs a hit nothing).
 */
/** What an entry costs besides its bytes (the map slot, the entry, its sources, the Buffer object), roughly. */
const ENTRY_OVERHEAD = 200;
/** What an entry's marks cost, each. */
const MARK_OVERHEAD = 8;

/** A kept part: its bytes, and the byte offsets where text made per answer goes in (see eventListJson.ts). */
export interface KeptPart {
  readonly bytes: Buffer;
  readonly marks: readonly number[];
}

const NO_MARKS: readonly number[] = [];

export class PresentedBytes {
  private readonly spaces = new Map<string, PartSpace>();
  private size = 0;

  constructor(readonly maxBytes: number) {}

  /** The parts of one kind for one set of addresses (e.g. events' own keys under `http://…/wp-json/…/`). */
  space(name: string): PartSpace {
    let space = this.spaces.get(name);
    if (!space) {
      space = new PartSpace(this);
      this.spaces.set(name, space);
    }
    return space;
  }

  get bytes(): number {
    return this.size;
  }

  /** Called by a space when its bytes change; evicts until the total fits again. */
  grew(delta: number): void {
    this.size += delta;
    while (this.size > this.maxBytes) {
      let largest: PartSpace | undefined;
      for (const space of this.spaces.values()) if (!largest || space.bytes > largest.bytes) largest = space;
      if (!largest || largest.bytes === 0) return;
      this.size -= largest.evictOldest();
    }
  }
}

interface Entry extends KeptPart {
  id: number;
  sources: readonly unknown[];
  bytes: Buffer;
  marks: readonly number[];
  used: boolean;
  /** False once the entry was replaced or evicted (it may still wait in the order queue). */
  live: boolean;
}

const NO_BYTES = Buffer.alloc(0);

export class PartSpace {
  private readonly entries = new Map<number, Entry>();
  /**
   * Entries oldest first, read from `head`: evicting takes the front in O(1). (Walking the map from its start
   * instead skips every slot deleted since it was last rehashed, thousands per eviction once the budget is
   * full.) Replaced entries stay here, dead and emptied, until passed or swept.
   */
  private order: Entry[] = [];
  private head = 0;
  private dead = 0;
  bytes = 0;

  constructor(private readonly owner: PresentedBytes) {}

  /** The bytes of record `id`, made by `make` when none are kept for exactly these `sources`. */
  through(id: number, sources: readonly unknown[], make: () => string): Buffer {
    return this.kept(id, sources, () => ({ text: make(), marks: NO_MARKS })).bytes;
  }

  /**
   * The part of record `id` with its marks, made by `make` when none is kept for exactly these `sources`
   * (`marks` in bytes of the UTF-8 `text`).
   */
  kept(
    id: number,
    sources: readonly unknown[],
    make: () => { text: string; marks: readonly number[] },
  ): KeptPart {
    const entry = this.entries.get(id);
    if (entry && sameSources(entry.sources, sources)) {
      entry.used = true;
      return entry;
    }
    const made = make();
    const bytes = Buffer.from(made.text, 'utf8');
    if (entry) {
      this.entries.delete(id);
      this.retire(entry);
      this.owner.grew(-sizeOf(entry));
      entry.bytes = NO_BYTES;
    }
    const added: Entry = { id, sources, bytes, marks: made.marks, used: false, live: true };
    this.entries.set(id, added);
    this.order.push(added);
    this.bytes += sizeOf(added);
    this.owner.grew(sizeOf(added));
    return added;
  }

  /** Drops the oldest entry not used since it was last looked at; returns the bytes freed. */
  evictOldest(): number {
    while (this.head < this.order.length) {
      const entry = this.order[this.head++];
      if (!entry!.live) {
        this.dead--;
        continue;
      }
      if (entry!.used) {
        // A second chance: to the back of the queue.
        entry!.used = false;
        this.order.push(entry!);
        continue;
      }
      this.entries.delete(entry!.id);
      this.retire(entry!);
      this.dead--; // retired and passed at once
      const freed = sizeOf(entry!);
      entry!.bytes = NO_BYTES;
      this.compact();
      return freed;
    }
    return 0;
  }

  private retire(entry: Entry): void {
    entry.live = false;
    entry.sources = [];
    this.bytes -= sizeOf(entry);
    this.dead++;
    this.compact();
  }

  /** Keeps the queue at most about twice the live entries, in order. */
  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
    if (this.dead > 1024 && this.dead > this.entries.size) {
      this.order = this.order.slice(this.head).filter((entry) => entry.live);
      this.head = 0;
      this.dead = 0;
    }
  }
}

const sizeOf = (entry: KeptPart) => entry.bytes.length + ENTRY_OVERHEAD + entry.marks.length * MARK_OVERHEAD;

function sameSources(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
