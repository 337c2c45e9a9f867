import type { View } from './userState.js';

// The home page (issue 22 "the first hour"): each user's own work, in sections that depend on what
// the user does. Every item links to where it is worked; every section says how many there are
// (counted up to HOME_COUNT_CAP) and links to the full list.

export const HOME_SECTIONS = [
  'overdueTasks',
  'tasksDueToday',
  'recentRequests',
  'notifications',
  'waitingOnSender',
  'changedSinceVisit',
  'failedMail',
  'unmatchedInbox',
] as const;
export type HomeSectionKey = (typeof HOME_SECTIONS)[number];

/** Counting stops here: "100+" says as much as an exact count of a long list. */
export const HOME_COUNT_CAP = 100;
/** Items shown per section; the section's link opens the rest. */
export const HOME_ITEMS_SHOWN = 5;

export interface HomeItem {
  id: string;
  /** What the item is: a task's subject, an applicant's name, a notification's text. */
  title: string;
  requestNumber: string | null;
  /** A task type, a request status: a word the page translates. */
  kind: string | null;
  /** ISO time the item is about: due, changed, received. */
  at: string | null;
  href: string;
}

export interface HomeSection {
  key: HomeSectionKey;
  count: number;
  countIsCapped: boolean;
  items: HomeItem[];
  /** Where the whole list is worked; null when the items are the whole list. */
  href: string | null;
}

export interface HomeView extends View {
  $type: 'home';
  name: string;
  /** When the user last opened the home page in an earlier session; null on a first visit. */
  lastVisitAt: string | null;
  sections: HomeSection[];
}
