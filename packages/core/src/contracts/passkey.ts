import { z } from 'zod';
import { userStateSchema } from '../userState.js';
import { defineRoute } from './route.js';

// Passkeys and security keys (issue 35, WebAuthn): enrolment on the account page, the second step
// of a sign-in, and a passwordless sign-in where the configuration allows it. The options are the
// JSON forms of WebAuthn's creation and request options (@simplewebauthn/server writes them,
// @simplewebauthn/browser reads them); the responses are what the browser's authenticator signed.

const b64 = z.string().max(20_000);

/** What navigator.credentials.create() or .get() answered, as JSON (base64url fields). */
const credentialShape = {
  id: z.string().min(1).max(1_000),
  rawId: z.string().min(1).max(1_000),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

export const registrationResponseSchema = z.object({
  ...credentialShape,
  response: z.object({
    clientDataJSON: b64,
    attestationObject: b64,
    transports: z.array(z.string().max(40)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64.optional(),
    authenticatorData: b64.optional(),
  }),
});

export const authenticationResponseSchema = z.object({
  ...credentialShape,
  response: z.object({
    clientDataJSON: b64,
    authenticatorData: b64,
    signature: b64,
    userHandle: b64.optional(),
  }),
});

/** The options as the browser library takes them; only the challenge is read on this side. */
const optionsSchema = z.looseObject({ challenge: z.string() });

/** POST /account/passkeys/options: the options to create a passkey for the own account. */
export const passkeyRegistrationOptionsRoute = defineRoute({
  method: 'POST',
  path: '/account/passkeys/options',
  answer: optionsSchema,
});

/** POST /account/passkeys: the created passkey, named; the first second factor brings recovery codes. */
export const addPasskeyRoute = defineRoute({
  method: 'POST',
  path: '/account/passkeys',
  body: z.object({
    name: z.string().trim().min(1, 'Name is required.').max(100, 'Name is too long.'),
    response: registrationResponseSchema,
  }),
  answer: z.strictObject({ recoveryCodes: z.array(z.string()).nullable() }),
});

/**
 * POST /signin/passkey/options: the options to sign in with a passkey. After the right password
 * (the challenge cookie) they name that user's passkeys; without it, a passwordless sign-in where
 * the configuration allows it, with any passkey of this site.
 */
export const passkeySignInOptionsRoute = defineRoute({
  method: 'POST',
  path: '/signin/passkey/options',
  answer: optionsSchema,
});

/** POST /signin/passkey: the signed challenge; a session, as the second step or alone. */
export const passkeySignInRoute = defineRoute({
  method: 'POST',
  path: '/signin/passkey',
  body: z.object({
    response: authenticationResponseSchema,
    'return-url': z.string().max(2000).optional(),
    /** `1`: remember this device for 30 days (the second step only, where the configuration offers it). */
    remember: z.string().max(10).optional(),
  }),
  answer: z.strictObject({ user: userStateSchema.nullable(), redirect: z.string() }),
});
