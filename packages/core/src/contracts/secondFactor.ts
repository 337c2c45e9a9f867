import { z } from 'zod';
import { SECOND_FACTOR_KINDS } from '../secondFactor.js';
import { userStateSchema } from '../userState.js';
import { defineRoute } from './route.js';

// Second factors (issue 35): the account's own code generators and recovery codes, the second step
// of a sign-in, and an administrator's reset. Secrets leave the server only once, at enrolment.

const codeField = z.string().trim().min(1, 'Code is required.').max(40, 'Code is too long.');

export const secondFactorSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  kind: z.enum(SECOND_FACTOR_KINDS),
  addedAt: z.string(),
});
export type SecondFactor = z.infer<typeof secondFactorSchema>;

export const secondFactorListSchema = z.strictObject({
  factors: z.array(secondFactorSchema),
  recoveryCodesLeft: z.number().int(),
});
export type SecondFactorList = z.infer<typeof secondFactorListSchema>;

/** GET /account/second-factors: the own confirmed second factors and how many recovery codes are left. */
export const secondFactorsRoute = defineRoute({
  method: 'GET',
  path: '/account/second-factors',
  answer: secondFactorListSchema,
});

/**
 * POST /account/second-factors: begins enrolling a code generator; answers its secret (in text, as an
 * otpauth URI and as a QR image), the only time it leaves the server. Unconfirmed until a first code.
 */
export const enrolSecondFactorRoute = defineRoute({
  method: 'POST',
  path: '/account/second-factors',
  // Passkeys enrol through their own routes (contracts/passkey.ts).
  body: z.object({ kind: z.enum(['totp']) }),
  answer: z.strictObject({ id: z.string(), secret: z.string(), uri: z.string(), qr: z.string() }),
});

const factorParams = z.object({ factorId: z.string().max(100) });

/** POST /account/second-factors/{id}/confirm: a first code confirms and names it; the first factor brings recovery codes. */
export const confirmSecondFactorRoute = defineRoute({
  method: 'POST',
  path: '/account/second-factors/:factorId/confirm',
  params: factorParams,
  body: z.object({
    name: z.string().trim().min(1, 'Name is required.').max(100, 'Name is too long.'),
    code: codeField,
  }),
  answer: z.strictObject({ recoveryCodes: z.array(z.string()).nullable() }),
});

/** POST /account/second-factors/{id}/remove: the last one needs the current password and a code. */
export const removeSecondFactorRoute = defineRoute({
  method: 'POST',
  path: '/account/second-factors/:factorId/remove',
  params: factorParams,
  body: z.object({
    password: z.string().max(1000).optional(),
    code: z.string().trim().max(40, 'Code is too long.').optional(),
  }),
  answer: z.strictObject({ ok: z.literal(true) }),
});

/** POST /account/recovery-codes: ten new recovery codes (the old ones stop working); shown once. */
export const regenerateRecoveryCodesRoute = defineRoute({
  method: 'POST',
  path: '/account/recovery-codes',
  body: z.object({ code: codeField }),
  answer: z.strictObject({ recoveryCodes: z.array(z.string()) }),
});

/** POST /signin/second-factor: the second step of a sign-in, a code or a recovery code. */
export const signInSecondFactorRoute = defineRoute({
  method: 'POST',
  path: '/signin/second-factor',
  body: z.object({
    code: codeField,
    'return-url': z.string().max(2000).optional(),
    /** `1`: remember this device for 30 days (where the configuration offers it). */
    remember: z.string().max(10).optional(),
  }),
  answer: z.strictObject({ user: userStateSchema.nullable() }),
});

/** POST /admin/users/edit/{userId}/second-factors/reset: removes all the user's second factors. */
export const resetSecondFactorsRoute = defineRoute({
  method: 'POST',
  path: '/admin/users/edit/:userId/second-factors/reset',
  params: z.object({ userId: z.string().max(100) }),
  answer: z.strictObject({ ok: z.literal(true) }),
});
