import { z } from 'zod';
import { defineRoute } from './route.js';
import { defineView } from './view.js';

// The recipient's page (issue 34): a public page at /r/{token}, no account. The link alone shows
// the passcode form and nothing else; a right passcode starts a session bound to that one request,
// and the page then shows what is asked and takes the recipient's answer. Everything it accepts
// lands on the request as correspondence for staff (never for the sender before QA).

export const RECIPIENT_PASSCODE_LENGTH = 8;
/** The one answer to a wrong link, a wrong passcode, an expired, revoked or locked access. */
export const RECIPIENT_ACCESS_REFUSED =
  'This link and passcode do not open a request. Check both, or ask the sender of the letter for a new link.';

const fileSchema = z.strictObject({ key: z.string(), name: z.string() });

export const recipientPageItemSchema = z.strictObject({
  name: z.string(),
  /** The questions of the item and the sender's answers, as lines. */
  lines: z.array(z.string()),
});

export const recipientPayeeChoiceSchema = z.strictObject({ payeeId: z.string(), name: z.string() });

export const recipientPageViewSchema = defineView('recipientPage', {
  token: z.string(),
  /** passcode: only the form; open: the request as the recipient may see it. */
  state: z.enum(['passcode', 'open']),
  request: z
    .strictObject({
      requestNumber: z.string(),
      sender: z.string(),
      recipient: z.string(),
      applicant: z.strictObject({
        name: z.string(),
        dateOfBirth: z.string().nullable(),
        references: z.array(z.string()),
      }),
      items: z.array(recipientPageItemSchema),
      instructions: z.string().nullable(),
      letter: fileSchema.nullable(),
      authority: fileSchema.nullable(),
      payees: z.array(recipientPayeeChoiceSchema),
      currencies: z.array(z.strictObject({ code: z.string(), name: z.string() })),
      expiresAt: z.string(),
      /** What the recipient sent so far through this link, newest first. */
      sent: z.array(z.strictObject({ at: z.string(), summary: z.string() })),
      uploadLimitBytes: z.number(),
      uploadedBytes: z.number(),
    })
    .optional(),
});
export type RecipientPageView = z.infer<typeof recipientPageViewSchema>;

const tokenParams = z.object({ token: z.string().max(200) });

/** GET /r/{token}: the page (the passcode form until a session of this access exists). */
export const recipientPageRoute = defineRoute({
  method: 'GET',
  path: '/r/:token',
  params: tokenParams,
  answer: recipientPageViewSchema,
});

/** POST /r/{token}/passcode: a right passcode starts the session (cookie) and answers the page. */
export const recipientPasscodeRoute = defineRoute({
  method: 'POST',
  path: '/r/:token/passcode',
  params: tokenParams,
  body: z.object({
    passcode: z.string().trim().min(1, 'Enter the passcode.').max(40, 'Enter the passcode.'),
  }),
  answer: recipientPageViewSchema,
});

/** POST /r/{token}/files?name=&kind=: the bytes of one file (the body), checked and kept for an answer. */
export const recipientUploadRoute = defineRoute({
  method: 'POST',
  path: '/r/:token/files',
  params: tokenParams,
  query: z.object({ name: z.string().min(1, 'A file name is required.').max(300) }),
  answer: z.strictObject({ key: z.string(), name: z.string(), size: z.number() }),
});

const keys = z.array(z.string().max(100)).max(50);
const minor = z.number().int('Enter whole cents.').min(0).max(1e13);
const message = z.string().max(10_000, 'The message is at most 10,000 characters.');

export const RECIPIENT_ANSWERS = [
  'records',
  'invoice',
  'noRecords',
  'needMoreInformation',
  'readyBy',
  'message',
] as const;
export type RecipientAnswerKind = (typeof RECIPIENT_ANSWERS)[number];

export const recipientAnswerSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('records'),
    files: keys.min(1, 'Upload at least one file.'),
    complete: z.boolean(),
    message: message.optional(),
  }),
  z.object({
    kind: z.literal('invoice'),
    file: z.string().max(100),
    amountExclusiveTax: minor,
    tax: minor,
    amount: minor,
    currency: z.string().max(3),
    payeeId: z.string().max(100).nullish(),
    payee: z
      .object({
        name: z.string().trim().max(200),
        referenceNumber: z.string().trim().max(100).optional(),
        email: z.string().trim().max(200).optional(),
        bankAccount: z.string().trim().max(100).optional(),
      })
      .nullish(),
    message: message.optional(),
  }),
  z.object({ kind: z.literal('noRecords'), message: message.optional() }),
  z.object({
    kind: z.literal('needMoreInformation'),
    message: message.trim().min(1, 'Say what you need.'),
  }),
  z.object({
    kind: z.literal('readyBy'),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date.'),
    message: message.optional(),
  }),
  z.object({ kind: z.literal('message'), message: message.trim().min(1, 'Write a message.') }),
]);
export type RecipientAnswer = z.infer<typeof recipientAnswerSchema>;

/** POST /r/{token}/answers: one answer of the recipient; answers the page as it is after it. */
export const recipientAnswerRoute = defineRoute({
  method: 'POST',
  path: '/r/:token/answers',
  params: tokenParams,
  body: recipientAnswerSchema,
  answer: recipientPageViewSchema,
});

/** GET /r/{token}/files/{key}: the letter or the authority, for the session of this access only. */
export const recipientFileRoute = defineRoute({
  method: 'GET',
  path: '/r/:token/files/:key',
  params: z.object({ token: z.string().max(200), key: z.string().max(100) }),
  answer: z.unknown(),
});
