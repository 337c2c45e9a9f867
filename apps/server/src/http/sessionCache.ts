import { KeptReads } from '../db/keptReads.js';
import type { Actor } from './actor.js';

// The actor of each session cookie, kept for a few seconds: every request needs it, and reading the
// session, its user and the user's roles was one database round trip of every answer. An entry is
// dropped when it is older than CACHE_MS or its session may have ended (idle or absolute expiry),
// and every entry is dropped when anything it is read from changes (db/sessionWrites.ts on this
// instance, NOTIFY dossier_sessions from any instance, and a reconnect of the listener, which may
// have missed some). For a second after such a change no entry is kept: a load that raced the
// changing transaction's commit may have read the state before it.

export const CACHE_MS = 30_000;
const MAX_ENTRIES = 10_000;

export interface ResolvedSession {
  actor: Actor;
  /** When the session ends unless it is used again (epoch ms): its idle or absolute expiry. */
  validUntil: number;
}

export class SessionCache {
  private readonly kept = new KeptReads<string, Actor>(MAX_ENTRIES);

  constructor(private readonly load: (token: string) => Promise<ResolvedSession | undefined>) {}

  actorOf(token: string): Promise<Actor | undefined> {
    return this.kept.get(token, async (now) => {
      const session = await this.load(token);
      if (!session) return undefined;
      return { value: frozen(session.actor), validUntil: Math.min(now + CACHE_MS, session.validUntil) };
    });
  }

  /** Drops every entry, and keeps none loaded before now or in the next second. */
  forget(): void {
    this.kept.forget();
  }
}

/** One actor object serves many requests: none of them may change it for the others. */
function frozen(actor: Actor): Actor {
  for (const role of actor.roles) Object.freeze(role);
  Object.freeze(actor.roles);
  Object.freeze(actor.permissions);
  return Object.freeze(actor);
}
