import { z } from 'zod';
import { userStateSchema } from '../userState.js';
import { signInViewSchema, ssoReauthenticatedViewSchema } from './pages.js';
import { defineRoute } from './route.js';

// Signing in and out, by password and by single sign-on. A browser's plain form posts are
// answered by redirects (not JSON, so not checked); the page's own calls get the answers below.

/**
 * GET /signin: the page. With `sso` the browser is sent to the identity provider instead (a GET
 * form of the page, handled before validation by features/sso).
 */
export const signInPageRoute = defineRoute({
  method: 'GET',
  path: '/signin',
  query: z.object({
    err: z.string().max(50).optional(),
    'return-url': z.string().max(2000).optional(),
    sso: z.string().max(10).optional(),
    /** With sso: `login` makes the provider ask who signs in (signing in as someone else). */
    prompt: z.enum(['login']).optional(),
    /** `1`: the password form of the break-glass account, when passwords are otherwise off. */
    local: z.string().max(10).optional(),
    /** `code`: the second step, after the right password of a user with a second factor. */
    step: z.enum(['code']).optional(),
    /** With err: the seconds to wait before trying again (the text says when). */
    retry: z.string().max(10).optional(),
  }),
  answer: signInViewSchema,
});

/** POST /signin: form-encoded from the page, from the overlay too; answers the signed-in user. */
export const signInRoute = defineRoute({
  method: 'POST',
  path: '/signin',
  body: z.object({
    username: z.string().trim().min(1, 'Username is required.').max(200),
    password: z.string().min(1, 'Password is required.').max(1000),
    'return-url': z.string().max(2000).optional(),
    local: z.string().max(10).optional(),
  }),
  /** `secondFactor`: the password was right and a code must follow (POST /signin/second-factor). */
  answer: z.strictObject({
    user: userStateSchema.nullable(),
    secondFactor: z.literal(true).optional(),
    /** With `secondFactor`: the second step may remember this browser (SIGNIN_REMEMBER_DEVICE). */
    rememberDevice: z.literal(true).optional(),
    /** The user's roles require a second factor it has not got: only its enrolment is open. */
    mustEnrol: z.literal(true).optional(),
  }),
});

/** POST /signout: `redirect` is the identity provider's sign-out page for a session begun there. */
export const signOutRoute = defineRoute({
  method: 'POST',
  path: '/signout',
  answer: z.strictObject({ ok: z.literal(true), redirect: z.string().optional() }),
});

/**
 * GET /sso/callback: the identity provider's answer; its query is read whole by the OpenID client.
 * Answers a redirect, or the ssoError page with 401: never JSON with 2xx, so not checked.
 */
export const ssoCallbackRoute = defineRoute({ method: 'GET', path: '/sso/callback', answer: z.unknown() });

/** POST /sso/backchannel-logout: Back-Channel Logout 1.0, `{}` or 400 with an OAuth error. */
export const ssoBackchannelLogoutRoute = defineRoute({
  method: 'POST',
  path: '/sso/backchannel-logout',
  body: z.object({ logout_token: z.string().min(1).max(20_000) }),
  answer: z.strictObject({}),
});

/** GET /sso/reauthenticated: where the sign-in overlay's window lands after signing in again. */
export const ssoReauthenticatedRoute = defineRoute({
  method: 'GET',
  path: '/sso/reauthenticated',
  answer: ssoReauthenticatedViewSchema,
});

/** GET /sso/applications/{index}: a redirect to the configured application, so not checked. */
export const ssoApplicationRoute = defineRoute({
  method: 'GET',
  path: '/sso/applications/:index',
  params: z.object({ index: z.coerce.number().int().min(0) }),
  answer: z.unknown(),
});
