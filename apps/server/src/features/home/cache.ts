import type { HomeView } from '@dossier/core';
import type { RootOperationNode } from 'kysely';
import { KeptReads } from '../../db/keptReads.js';
import { tablesWritten } from '../../db/writes.js';
import type { Actor } from '../auth/index.js';

// Each session's home page, kept by the instance that read it: the page is everyone's landing
// place, opened again and again, and reading it costs one statement of seven lists. A kept page
// answers only while nothing it is read from has changed:
// - any write to its tables drops every kept page: this instance's own writes as they are built
//   (db/writes.ts), so the writer's next page shows them; every instance's after their commit
//   (NOTIFY dossier_home from the triggers of migration 20261130_4001, and dossier_configuration
//   for the public holidays); and all of them whenever the listening connection is down or back;
// - a page is kept for the session's actor object only: a changed user or role reads the actor
//   again (http/sessionCache.ts), and with it the page;
// - a page is kept at most HOME_CACHE_MS, and never past the moment time alone changes it: the
//   first task due today falling overdue, or the end of the day.

export const HOME_CHANGE_CHANNEL = 'dossier_home';
export const HOME_CACHE_MS = 30_000;
const MAX_ENTRIES = 5_000;

/** The tables migration 20261130_4001 notifies on: what the home page reads. */
export const HOME_TABLES: ReadonlySet<string> = new Set([
  'tasks',
  'requests',
  'events',
  'notifications',
  'mail_outbox',
  'inbox_messages',
  'inbox_message_links',
  'home_visits',
]);
/** The public holidays (they set today's end), which notify on their own channel. */
const CONFIGURATION_TABLES = new Set(['configurations', 'configuration_entries']);

export function writesHomeState(node: RootOperationNode): boolean {
  return tablesWritten(node).some((t) => HOME_TABLES.has(t) || CONFIGURATION_TABLES.has(t));
}

export interface HomePage {
  view: HomeView;
  /** When time alone changes the page (a task falls overdue, the day ends); null: not before a write. */
  changesAt: Date | null;
}

interface Kept {
  actor: Actor;
  view: HomeView;
}

export class HomeCache {
  private readonly kept = new KeptReads<string, Kept>(MAX_ENTRIES);

  /** `listening`: whether this instance hears other instances' changes now. */
  constructor(private readonly listening: () => boolean) {}

  async viewOf(actor: Actor, load: () => Promise<HomePage>): Promise<HomeView> {
    if (!this.listening()) {
      this.forget();
      return (await load()).view;
    }
    const kept = await this.kept.get(
      actor.sessionId,
      async (now) => {
        const page = await load();
        const until = Math.min(now + HOME_CACHE_MS, page.changesAt?.getTime() ?? Number.POSITIVE_INFINITY);
        return { value: { actor, view: deepFrozen(page.view) }, validUntil: until };
      },
      (value) => value.actor === actor,
    );
    if (!kept) throw new Error('the home page read answered nothing');
    return kept.view;
  }

  forget(): void {
    this.kept.forget();
  }
}

/** One kept page answers many requests: none of them may change it for the others. */
function deepFrozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFrozen(inner);
    Object.freeze(value);
  }
  return value;
}
