import { EXTERNAL_ROLE, type HomeSectionKey } from '@dossier/core';
import { type Actor, hasPermission } from '../auth/index.js';

// Which sections of the home page a user gets, by what the user does: handling requests (their
// tasks and the requests they worked), being a request's sender side (what waits on their
// organisation, what changed), administering mail and working the inbox. Notifications are
// everyone's.

const SENDER_ROLES = ['c:roles:submitter', EXTERNAL_ROLE];

export function homeSectionsFor(actor: Actor): Set<HomeSectionKey> {
  const sections = new Set<HomeSectionKey>(['notifications']);
  if (hasPermission(actor, 'request:handle')) {
    sections.add('overdueTasks');
    sections.add('tasksDueToday');
    sections.add('recentRequests');
  }
  if (actor.roles.some((grant) => SENDER_ROLES.includes(grant.role))) {
    sections.add('waitingOnSender');
    sections.add('changedSinceVisit');
  }
  if (hasPermission(actor, 'mail:view')) sections.add('failedMail');
  if (hasPermission(actor, 'inbox') && hasPermission(actor, 'mail:view')) sections.add('unmatchedInbox');
  return sections;
}

/** The actor as its sender side only: its submitter and external grants, none of its staff roles. */
export function senderSide(actor: Actor): Actor {
  return { ...actor, roles: actor.roles.filter((grant) => SENDER_ROLES.includes(grant.role)) };
}
