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
