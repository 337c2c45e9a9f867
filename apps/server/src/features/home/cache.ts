import type { HomeView } from '@dossier/core';
import { KeptReads } from '../../db/keptReads.js';
import type { Actor } from '../auth/index.js';

// Each session's home page, kept by the instance that read it: the page is everyone's landing
// place, opened again and again, and reading it costs one statement of seven lists. A kept page
// answers only while nothing it was read from has changed:
// - a write to the tables it reads drops the pages it may change, on every instance after the
//   commit: triggers (migration 20261130_4001) send NOTIFY dossier_home naming what changed (users,
//   requests, scopes; '*' for a change too large to name), and each page knows what it depends on;
// - the user's own write drops the user's pages on the instance that answered it, before the answer
//   leaves, so the writer's next page shows it (routes.ts);
// - the configuration (holidays), a lost listener or its reconnect drop every page, and nothing is
//   kept while this instance cannot hear the others;
// - a page is kept for the session's actor object only: a changed user or role reads the actor
//   again (http/sessionCache.ts), and with it the page;
// - a page is kept at most HOME_CACHE_MS, and never past the moment time alone changes it: the
//   first task due today falling overdue, or the end of the day. A session's first page, which
//   records the visit, is not kept.

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

/** What a page was read from, to match the changes named by the triggers against. */
export interface HomeDependencies {
  userId: string;
  /** Requests whose change may change the page (those the user worked on last). */
  requests: ReadonlySet<string>;
  /** Scopes at or under which a changed request, task, message or mail may change the page. */
  scopes: readonly string[];
}

export interface HomePage {
  view: HomeView;
  /** When time alone changes the page (a task falls overdue, the day ends); null: not before a write. */
  changesAt: Date | null;
  dependsOn: HomeDependencies;
}

/** A change as the triggers name it: `u:<user>`, `r:<request number>`, `s:<scope>`; '*' is anything. */
export type HomeChange = readonly string[] | '*';

/** Reads a NOTIFY payload; anything unreadable counts as a change of everything. */
export function parseHomeChange(payload: string | undefined): HomeChange {
  if (!payload || payload === '*') return '*';
  try {
    const keys: unknown = JSON.parse(payload);
    return Array.isArray(keys) && keys.every((k) => typeof k === 'string') ? keys : '*';
  } catch {
    return '*';
  }
}

export function changeAffects(change: HomeChange, on: HomeDependencies): boolean {
  if (change === '*') return true;
  return change.some((key) => {
    const value = key.slice(2);
    if (key.startsWith('u:')) return value === on.userId;
    if (key.startsWith('r:')) return on.requests.has(value);
    if (key.startsWith('s:')) return on.scopes.some((scope) => value.startsWith(scope));
    return true;
  });
}

interface Kept {
  actor: Actor;
  view: HomeView;
  dependsOn: HomeDependencies;
}

export class HomeCache {
  private readonly kept = new KeptReads<string, Kept>(MAX_ENTRIES);

  /** `listening`: whether this instance hears other instances' changes now. */
  constructor(private readonly listening: () => boolean) {}

  async viewOf(actor: Actor, load: () => Promise<HomePage>): Promise<HomeView> {
    if (!this.listening()) {
      this.forget('*');
      return (await load()).view;
    }
    const kept = await this.kept.get(
      actor.sessionId,
      async (now) => {
        const page = await load();
        const until = Math.min(now + HOME_CACHE_MS, page.changesAt?.getTime() ?? Number.POSITIVE_INFINITY);
        return {
          value: { actor, view: deepFrozen(page.view), dependsOn: page.dependsOn },
          validUntil: until,
        };
      },
      (value) => value.actor === actor,
    );
    if (!kept) throw new Error('the home page read answered nothing');
    return kept.view;
  }

  /** Drops the pages the change may affect, on this instance. */
  forget(change: HomeChange): void {
    if (change === '*') this.kept.forget();
    else this.kept.forget((page) => changeAffects(change, page.dependsOn));
  }

  /** Drops the user's own pages: after the user's write, before the answer leaves. */
  forgetUser(userId: string): void {
    this.kept.forget((page) => page.dependsOn.userId === userId);
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
