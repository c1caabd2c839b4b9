/** A cached JSON answer: exactly what was sent, so a hit costs no query and no serialization. */
interface CachedResponse {
  version: number;
  status: number;
  headers: Record<string, string>;
  /** The encoded JSON: hits send these bytes as they are. */
  body: Buffer;
}

/**
 * Answers of GET requests, reused while nothing in the store changed. The key is the whole request as far as
 * it shapes the answer (address, host, caller, the current minute for time windows); the store version in
 * each entry makes every change invalidate everything at once, so a cached answer is never stale.
 * Bounded by entries and bytes, least recently used first out.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;
  /** Requests answered once at a store version (key → version): an answer is kept when asked again. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly maxEntries = 500,
    // Lists are assembled from kept parts (present/eventListJson.ts): a whole answer is worth keeping only
    // while it is asked again, so a few dozen pages of 50 events are enough.
    private readonly maxBytes = 24 * 1024 * 1024,
  ) {}

  get(key: string, version: number): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * Whether an answer to `key` is worth keeping: the request was answered before at this `version`. A request
   * asked once (a calendar moving window by window, a search) would only push out answers that are asked
   * again, and cost a copy of its bytes; the second time, its answer is kept.
   */
  worthKeeping(key: string, version: number): boolean {
    if (this.seen.get(key) === version) return true;
    if (this.seen.size >= this.maxEntries * 8) this.seen.clear();
    this.seen.set(key, version);
    return false;
  }

  set(key: string, entry: CachedResponse): void {
    if (entry.body.length > this.maxBytes / 8) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.body.length;
    }
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.body.length;
    }
  }
}
