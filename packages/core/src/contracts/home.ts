import { z } from 'zod';
import { HOME_SECTIONS } from '../home.js';
import { defineRoute } from './route.js';
import { defineView } from './view.js';

// The home page: each user's own work, in sections that depend on what the user does.

export const homeItemSchema = z.object({
  id: z.string(),
  /** What the item is: a task's subject, an applicant's name, a notification's text. */
  title: z.string(),
  requestNumber: z.string().nullable(),
  /** A task type, a request status: a word the page translates. */
  kind: z.string().nullable(),
  /** ISO time the item is about: due, changed, received. */
  at: z.string().nullable(),
  href: z.string(),
});
export type HomeItem = z.infer<typeof homeItemSchema>;

export const homeSectionSchema = z.object({
  key: z.enum(HOME_SECTIONS),
  count: z.number(),
  countIsCapped: z.boolean(),
  items: z.array(homeItemSchema),
  /** Where the whole list is worked; null when the items are the whole list. */
  href: z.string().nullable(),
});
export type HomeSection = z.infer<typeof homeSectionSchema>;

export const homeViewSchema = defineView('home', {
  name: z.string(),
  /** When the user last opened the home page in an earlier session; null on a first visit. */
  lastVisitAt: z.string().nullable(),
  sections: z.array(homeSectionSchema),
});
export type HomeView = z.infer<typeof homeViewSchema>;

/** GET /: the signed-in user's home page. */
export const homePageRoute = defineRoute({ method: 'GET', path: '/', answer: homeViewSchema });
