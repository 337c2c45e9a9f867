import {
  HOME_COUNT_CAP,
  HOME_ITEMS_SHOWN,
  type HomeItem,
  type HomeSection,
  type HomeSectionKey,
  type HomeView,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { type Actor, scopesWithPermission } from '../auth/index.js';
import { getPublicHolidays } from '../configuration/index.js';
import { dueWindow } from '../dashboard/index.js';
import { visibleRequests, visibleScopes } from '../requests/index.js';
import type { HomeDependencies, HomePage } from './cache.js';
import { homeSectionsFor, senderSide } from './policy.js';
import * as repo from './repository.js';

// The home page: each section is the user's own work, read with the same visibility rules as the
// lists it links to (requests/policy.ts for requests and tasks, the inbox and mail scopes for
// messages), so the home page never shows what its link would refuse.

/** A user with no earlier visit sees what changed in the last two weeks. */
const FIRST_VISIT_WINDOW_MS = 14 * 24 * 3600 * 1000;

const requestHref = (n: string) => `/requests/${encodeURIComponent(n)}`;
/** Timestamps come as ISO strings with an offset (the page is read as JSON): answered in UTC. */
const iso = (d: string | null | undefined) => (d ? new Date(d).toISOString() : null);

function section(
  key: HomeSectionKey,
  listed: repo.Listed<unknown>,
  items: HomeItem[],
  href: string | null,
): HomeSection {
  return {
    key,
    count: Math.min(listed.count, HOME_COUNT_CAP),
    countIsCapped: listed.count > HOME_COUNT_CAP,
    items,
    href,
  };
}

function taskItem(row: repo.TaskRow): HomeItem {
  return {
    id: row.id,
    title: row.subject,
    requestNumber: row.request_number,
    kind: row.type,
    at: iso(row.due_at),
    // A task is worked on its request's page, or on its message's page in the inbox.
    href: row.request_number
      ? requestHref(row.request_number)
      : `/inbox/messages/${encodeURIComponent(row.message_id ?? '')}`,
  };
}

function requestItem(row: repo.RequestRow): HomeItem {
  return {
    id: row.request_number,
    title: row.applicant_name,
    requestNumber: row.request_number,
    kind: row.status,
    at: iso(row.at),
    href: requestHref(row.request_number),
  };
}

/** A notification's target when it is a path of this app; otherwise the request it names, or home. */
function notificationHref(target: string): string {
  return target.startsWith('/') && !target.startsWith('//') ? target : '/';
}

export async function getHomePage(db: DbOrTrx, actor: Actor, now = new Date()): Promise<HomePage> {
  const shown = homeSectionsFor(actor);
  const visible = visibleRequests(actor);
  const n = HOME_ITEMS_SHOWN;
  const cap = HOME_COUNT_CAP;
  const none = repo.NO_PART;
  const staffSide = shown.has('overdueTasks');
  const inboxScopes = scopesWithPermission(actor, 'inbox');
  const mailScopes = scopesWithPermission(actor, 'mail:view');
  const mine = {
    userId: actor.id,
    visible: visibleScopes(actor),
    inboxScopes,
  };
  const today = staffSide ? dueWindow('today', now, await getPublicHolidays(db, actor.scope)) : undefined;
  // The sender side's own view: a person who is also staff somewhere sees the sender's tasks of
  // the requests it sees as a sender only (its submitter and external grants).
  const sender = senderSide(actor);
  const asSender = visibleRequests(sender);
  const since = repo.visitOrSince(actor.id, now, new Date(now.getTime() - FIRST_VISIT_WINDOW_MS));
  const page = await repo.readParts(db, {
    visit: repo.visit(actor.id, now),
    overdue: today ? repo.assignedTasks({ ...mine, before: now }, n, cap) : none,
    dueToday: today ? repo.assignedTasks({ ...mine, from: now, before: today.before }, n, cap) : none,
    touched: staffSide ? repo.requestsTouched(actor.id, visible, n) : none,
    waiting: shown.has('waitingOnSender') ? repo.waitingOnSender(asSender, n, cap) : none,
    changed: shown.has('changedSinceVisit') ? repo.changedSince(asSender, since, n, cap) : none,
    unread: repo.unreadNotifications(actor.id, n, cap),
    failed: shown.has('failedMail') ? repo.failedMail(mailScopes, n, cap) : none,
    unmatched: shown.has('unmatchedInbox') ? repo.unmatchedMessages(inboxScopes, n, cap) : none,
  });
  // A new visit, or a visit's view after VIEW_TOUCH_MS, is written; every other load only reads.
  if (!page.visit?.recorded) await repo.recordVisit(db, actor.id, actor.sessionId, now);

  const sections: HomeSection[] = [];
  const { overdue, dueToday, touched } = page;
  if (overdue && dueToday && touched) {
    sections.push(
      section('overdueTasks', overdue, overdue.rows.map(taskItem), '/dashboard?due=today'),
      section('tasksDueToday', dueToday, dueToday.rows.map(taskItem), '/dashboard?due=today'),
      section(
        'recentRequests',
        { rows: touched.rows, count: touched.rows.length },
        touched.rows.map(requestItem),
        null,
      ),
    );
  }
  const { waiting, changed } = page;
  if (waiting && changed) {
    sections.push(
      section(
        'waitingOnSender',
        waiting,
        waiting.rows.map((row) => ({
          id: row.id,
          title: row.subject,
          requestNumber: row.request_number,
          kind: 'senderActionRequired',
          at: iso(row.due_at),
          href: requestHref(row.request_number),
        })),
        '/dashboard?taskType=senderActionRequired',
      ),
      section('changedSinceVisit', changed, changed.rows.map(requestItem), '/requests/find'),
    );
  }
  const { unread, failed, unmatched } = page;
  sections.push(
    section(
      'notifications',
      unread,
      unread.rows.map((row) => ({
        id: row.id,
        title: row.text,
        requestNumber: null,
        kind: null,
        at: iso(row.created_at),
        href: notificationHref(row.target),
      })),
      null,
    ),
  );
  if (failed) {
    sections.push(
      section(
        'failedMail',
        failed,
        failed.rows.map((row) => ({
          id: row.id,
          title: row.subject,
          requestNumber: null,
          kind: row.to,
          at: iso(row.failed_at),
          href: `/admin/outbox/${encodeURIComponent(row.id)}`,
        })),
        '/admin/outbox',
      ),
    );
  }
  if (unmatched) {
    sections.push(
      section(
        'unmatchedInbox',
        unmatched,
        unmatched.rows.map((row) => ({
          id: row.id,
          title: row.subject,
          requestNumber: null,
          kind: row.from_email,
          at: iso(row.received_at),
          href: `/inbox/messages/${encodeURIComponent(row.id)}`,
        })),
        '/inbox',
      ),
    );
  }

  const view: HomeView = {
    $type: 'home',
    title: 'Home',
    name: actor.name,
    lastVisitAt: iso(page.visit?.last_visit_at),
    sections,
  };
  // The soonest task due today is the first to fall overdue; at today's end the window moves on.
  // A page that recorded a view made a change of its own: it is not kept. A kept page lasts no
  // longer than the next view's write is due, so a view after a pause starts its new visit.
  const firstDue = dueToday?.rows[0]?.due_at;
  const changesAt = !page.visit?.recorded
    ? now
    : new Date(
        Math.min(
          now.getTime() + repo.VIEW_TOUCH_MS,
          today?.before.getTime() ?? Infinity,
          firstDue ? Date.parse(firstDue) : Infinity,
        ),
      );
  const dependsOn: HomeDependencies = {
    userId: actor.id,
    requests: new Set(touched?.considered),
    scopes: [
      ...(waiting ? sender.roles.map((grant) => grant.scope) : []),
      ...(failed ? mailScopes : []),
      ...(unmatched ? inboxScopes : []),
    ],
  };
  return { view, changesAt, dependsOn };
}
