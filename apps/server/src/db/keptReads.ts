// Values read from the database and kept in this instance, each until its own time is up. A change
// to what they were read from drops them: forget() drops every value, forget(affects) those it
// affects. A read in flight when a change comes answers its value but is not kept if the change
// affects it, since it may have read the state before the change. forget() of everything also keeps
// nothing for a second, for a caller that forgets as a change is made rather than after its commit
// (a read in that second may still see the state before it).

const SETTLE_MS = 1_000;
/** Changes remembered for reads in flight; a read that took longer is not kept. */
const CHANGES_KEPT_MS = 60_000;

export interface Read<V> {
  value: V;
  /** Until when (epoch ms) the value may answer for the key; at or before now: not kept. */
  validUntil: number;
}

interface Entry<V> {
  value: V;
  validUntil: number;
}

interface Change<V> {
  at: number;
  /** Changes are numbered in order: a read notes the last number before it starts. */
  seq: number;
  affects: (value: V) => boolean;
}

export class KeptReads<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  /** Recent changes, oldest first. */
  private changes: Change<V>[] = [];
  private settledAt = 0;
  private seq = 0;
  /** The number of the last change of everything: it refuses every read started before it. */
  private everythingSeq = 0;

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
    const seen = this.seq;
    const read = await load(now);
    if (!read) {
      this.entries.delete(key);
      return undefined;
    }
    const done = Date.now();
    if (
      now >= this.settledAt &&
      done - now < CHANGES_KEPT_MS &&
      read.validUntil > done &&
      !this.changedSince(seen, read.value)
    )
      this.keep(key, read);
    return read.value;
  }

  /**
   * Drops the values `affects` answers true for; without it, every value, and keeps none for a
   * second (see above).
   */
  forget(affects?: (value: V) => boolean): void {
    const now = Date.now();
    const seq = ++this.seq;
    if (!affects) {
      // Supersedes every change before it, so the log starts afresh: it stays small even when
      // everything is forgotten on every read (a cache that cannot hear changes).
      this.everythingSeq = seq;
      this.changes = [];
      this.settledAt = now + SETTLE_MS;
      this.entries.clear();
      return;
    }
    while (this.changes[0] && now - this.changes[0].at >= CHANGES_KEPT_MS) this.changes.shift();
    this.changes.push({ at: now, seq, affects });
    for (const [key, entry] of this.entries) if (affects(entry.value)) this.entries.delete(key);
  }

  /** Whether a change after the one numbered `seen` affects `value`. */
  private changedSince(seen: number, value: V): boolean {
    if (this.everythingSeq > seen) return true;
    for (let i = this.changes.length - 1; i >= 0; i--) {
      const change = this.changes[i];
      if (!change || change.seq <= seen) return false;
      if (change.affects(value)) return true;
    }
    return false;
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
