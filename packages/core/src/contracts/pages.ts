import { z } from 'zod';
import { userStateSchema } from '../userState.js';
import { defineRoute } from './route.js';
import { defineView } from './view.js';

// The pages that carry little more than a text: refusals, rich-text pages, sign-in and single
// sign-on outcomes.

export const invalidUrlViewSchema = defineView('invalidUrl', { path: z.string().optional() });
export type InvalidUrlView = z.infer<typeof invalidUrlViewSchema>;

export const accessDeniedViewSchema = defineView('accessDenied', {
  message: z.string(),
  path: z.string().optional(),
});
export type AccessDeniedView = z.infer<typeof accessDeniedViewSchema>;

export const richTextPageViewSchema = defineView('richTextPage', { body: z.unknown() });
export type RichTextPageView = z.infer<typeof richTextPageViewSchema>;

export const signInViewSchema = defineView('signin', {
  err: z.string().optional(),
  returnUrl: z.string(),
  canRegister: z.boolean(),
  /** Passwords are off, but this page shows the break-glass account's password form (`?local=1`). */
  breakGlass: z.boolean().optional(),
  /** The password was right: the page asks for the code of a second factor (`?step=code`). */
  secondStep: z.boolean().optional(),
  /** In the second step: the user holds a passkey, which may take the place of the code. */
  passkey: z.boolean().optional(),
  /** A passkey alone may sign in (passwordless; the configuration allows it). */
  passkeySignIn: z.boolean().optional(),
  /** The second step offers "Remember this device for 30 days". */
  rememberDevice: z.boolean().optional(),
});
export type SignInView = z.infer<typeof signInViewSchema>;

export const ssoErrorViewSchema = defineView('ssoError', { text: z.string(), message: z.string() });
export type SsoErrorView = z.infer<typeof ssoErrorViewSchema>;

export const ssoReauthenticatedViewSchema = defineView('ssoReauthenticated', { user: userStateSchema });
export type SsoReauthenticatedView = z.infer<typeof ssoReauthenticatedViewSchema>;

/** GET /contact: readable without signing in, as a locked-out user needs it most. */
export const contactPageRoute = defineRoute({
  method: 'GET',
  path: '/contact',
  answer: richTextPageViewSchema,
});

/** GET /help: readable without signing in too. */
export const helpPageRoute = defineRoute({ method: 'GET', path: '/help', answer: richTextPageViewSchema });
