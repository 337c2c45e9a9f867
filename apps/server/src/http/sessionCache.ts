import type { Actor } from './actor.js';

// The actor of each session cookie, kept for a few seconds: every request needs it, and reading the
// session, its user and the user's roles was one database round trip of every answer. An entry is
// dropped when it is older than CACHE_MS or its session may have ended (idle or absolute expiry),
// and every entry is dropped when anything it is read from changes (db/sessionWrites.ts on this
// instance, NOTIFY dossier_sessions from any instance, and a reconnect of the listener, which may
// have missed some). For a second after such a change no entry is kept: a load that raced the
// changing transaction's commit may have read the state before it.

export const CACHE_MS = 30_000;
const SETTLE_MS = 1_000;
const MAX_ENTRIES = 10_000;

export interface ResolvedSession {
  actor: Actor;
  /** When the session ends unless it is used again (epoch ms): its idle or absolute expiry. */
  validUntil: number;
}

interface Entry {
  session: ResolvedSession;
  loadedAt: number;
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private settledAt = 0;

  constructor(private readonly load: (token: string) => Promise<ResolvedSession | undefined>) {}

  async actorOf(token: string): Promise<Actor | undefined> {
    const now = Date.now();
    const hit = this.entries.get(token);
    if (hit && now - hit.loadedAt < CACHE_MS && now < hit.session.validUntil) return hit.session.actor;
    const generation = this.generation;
    const session = await this.load(token);
    if (!session) {
      this.entries.delete(token);
      return undefined;
    }
    if (generation === this.generation && now >= this.settledAt) this.keep(token, session, now);
    return session.actor;
  }

  /** Drops every entry, and keeps none loaded before now or in the next second. */
  forget(): void {
    this.generation++;
    this.settledAt = Date.now() + SETTLE_MS;
    this.entries.clear();
  }

  private keep(token: string, session: ResolvedSession, now: number): void {
    this.entries.delete(token);
    if (this.entries.size >= MAX_ENTRIES) {
      // Map keeps insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(token, { session: { ...session, actor: frozen(session.actor) }, loadedAt: now });
  }
}

/** One actor object serves many requests: none of them may change it for the others. */
function frozen(actor: Actor): Actor {
  for (const role of actor.roles) Object.freeze(role);
  Object.freeze(actor.roles);
  Object.freeze(actor.permissions);
  return Object.freeze(actor);
}
