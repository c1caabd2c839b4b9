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

interface Entry {
  sources: readonly unknown[];
  bytes: Buffer;
  used: boolean;
}

export class PartSpace {
  private readonly entries = new Map<number, Entry>();
  bytes = 0;

  constructor(private readonly owner: PresentedBytes) {}

  /** The bytes of record `id`, made by `make` when none are kept for exactly these `sources`. */
  through(id: number, sources: readonly unknown[], make: () => string): Buffer {
    const entry = this.entries.get(id);
    if (entry && sameSources(entry.sources, sources)) {
      entry.used = true;
      return entry.bytes;
    }
    const bytes = Buffer.from(make(), 'utf8');
    if (entry) {
      this.entries.delete(id);
      this.bytes -= sizeOf(entry.bytes);
      this.owner.grew(-sizeOf(entry.bytes));
    }
    this.entries.set(id, { sources, bytes, used: false });
    this.bytes += sizeOf(bytes);
    this.owner.grew(sizeOf(bytes));
    return bytes;
  }

  /** Drops the oldest entry not used since it was last looked at; returns the bytes freed. */
  evictOldest(): number {
    for (const [id, entry] of this.entries) {
      this.entries.delete(id);
      if (entry.used) {
        entry.used = false;
        this.entries.set(id, entry);
        continue;
      }
      this.bytes -= sizeOf(entry.bytes);
      return sizeOf(entry.bytes);
    }
    return 0;
  }
}

const sizeOf = (bytes: Buffer) => bytes.length + ENTRY_OVERHEAD;

function sameSources(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
