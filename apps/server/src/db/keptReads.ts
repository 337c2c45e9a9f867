// Values read from the database and kept in this instance, each until its own time is up, all of
// them dropped at once by forget() when anything they may be read from changes. A read that raced
// the change (it began before forget(), or in the second after it, while the changing transaction's
// commit may not yet be visible to every connection) answers its value but is not kept.

const SETTLE_MS = 1_000;

export interface Read<V> {
  value: V;
  /** Until when (epoch ms) the value may answer for the key; at or before now: not kept. */
  validUntil: number;
}

interface Entry<V> {
  value: V;
  validUntil: number;
}

export class KeptReads<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private generation = 0;
  private settledAt = 0;

  constructor(private readonly maxEntries: number) {}

  /**
   * The value kept for `key` while it is valid and `fits` it, else what `load` reads (kept when it
   * may be). `load` answering undefined drops the key.
   */
  async get(
    key: K,
    load: (now: number) => Promise<Read<V> | undefined>,
    fits: (value: V) => boolean = () => true,
  ): Promise<V | undefined> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now < hit.validUntil && fits(hit.value)) return hit.value;
    const generation = this.generation;
    const read = await load(now);
    if (!read) {
      this.entries.delete(key);
      return undefined;
    }
    if (generation === this.generation && now >= this.settledAt && read.validUntil > Date.now())
      this.keep(key, read);
    return read.value;
  }

  /** Drops every entry, and keeps none loaded before now or in the next second. */
  forget(): void {
    this.generation++;
    this.settledAt = Date.now() + SETTLE_MS;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private keep(key: K, read: Read<V>): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Map keeps insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value: read.value, validUntil: read.validUntil });
  }
}
