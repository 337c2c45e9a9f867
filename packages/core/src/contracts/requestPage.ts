import { z } from 'zod';
import type { CorrespondenceItem, RequestHistoryEntry, RequestPreview } from '../requests/views.js';
import type { RichTextDoc } from '../richText.js';
import { requestViewSchema } from './requests.js';
import { defineRoute } from './route.js';
import { typed } from './view.js';

// The routes of the request page: the page, its part edits and actions, a note's edit, the hover
// preview, mention suggestions, older history and the letters of the issueRequest panel.

const requestNumber = z.string().max(20);
const requestParams = z.object({ requestNumber });

/** The parts of a request its page edits (POST /requests/{n}/{part}). */
export const EDITABLE_PARTS = ['summary', 'sender', 'applicant', 'content'] as const;
export type EditablePart = (typeof EDITABLE_PARTS)[number];

/**
 * The body of a commit whose schema depends on the part or action named in the path: the server
 * parses it with that part's or action's own schema after the caller's permission and the request's
 * state held, so a refusal comes before a field error. Here only: an object, or nothing.
 */
const namedCommitBody = z.record(z.string(), z.unknown()).optional();

/** `?answer=request`: the write answers the request view beside its own answer. */
export const answerRequestQuery = z.object({ answer: z.enum(['request']).optional() });

export const requestPageRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber',
  params: requestParams,
  answer: requestViewSchema,
});

/** A part edit: `{ version, data }`, the data checked by the part's schema (requests/parts.ts). */
export const saveRequestPartRoute = defineRoute({
  method: 'POST',
  path: '/requests/:requestNumber/:part',
  params: requestParams.extend({ part: z.enum(EDITABLE_PARTS) }),
  body: namedCommitBody,
  answer: requestViewSchema,
});

/** An action answers the request view as it is after the commit, beside the ids of what it made. */
export const requestActionRoute = defineRoute({
  method: 'POST',
  path: '/requests/:requestNumber/actions/:action',
  params: requestParams.extend({ action: z.string().max(50) }),
  body: namedCommitBody,
  answer: requestViewSchema.extend({
    taskId: z.string().optional(),
    resultId: z.string().optional(),
    invoiceId: z.string().optional(),
    messageId: z.string().optional(),
    /** revokeRecipientAccess, resendRecipientAccess: the recipient's link revoked or made. */
    accessId: z.string().optional(),
    /** issueRequest(Again): the letter sent and how many open tasks it completed. */
    letter: z.object({ key: z.string(), name: z.string() }).optional(),
    tasksCompleted: z.number().optional(),
  }),
});

const correspondenceItem = typed<CorrespondenceItem>();

/** A note's edit: `{ item }`, or with `?answer=request` the request view beside it. */
export const editCorrespondenceRoute = defineRoute({
  method: 'POST',
  path: '/requests/:requestNumber/correspondence/:messageId',
  params: requestParams.extend({ messageId: z.string().max(100) }),
  query: answerRequestQuery,
  body: namedCommitBody,
  answer: z.union([
    z.strictObject({ item: correspondenceItem }),
    requestViewSchema.extend({ item: correspondenceItem }),
  ]),
});

export const acceptMessageSenderRoute = defineRoute({
  method: 'POST',
  path: '/requests/:requestNumber/correspondence/:messageId/accept-sender',
  params: requestParams.extend({ messageId: z.string().max(100) }),
  answer: z.object({ item: correspondenceItem.optional() }),
});

/** Share with sender (issue 32): the sender side sees a received message's body and attachments. */
export const shareMessageWithSenderRoute = defineRoute({
  method: 'POST',
  path: '/requests/:requestNumber/correspondence/:messageId/share-with-sender',
  params: requestParams.extend({ messageId: z.string().max(100) }),
  answer: z.object({ item: correspondenceItem.optional() }),
});

/** Stop sharing with sender: the received message is staff's again. */
export const stopSharingMessageWithSenderRoute = defineRoute({
  method: 'POST',
  path: '/requests/:requestNumber/correspondence/:messageId/stop-sharing-with-sender',
  params: requestParams.extend({ messageId: z.string().max(100) }),
  answer: z.object({ item: correspondenceItem.optional() }),
});

export const requestPreviewRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/preview',
  params: requestParams,
  answer: typed<RequestPreview>(),
});

export const mentionSuggestionSchema = z.object({ id: z.string(), name: z.string() });
export type MentionSuggestion = z.infer<typeof mentionSuggestionSchema>;

/** People to mention in a note; a prefix shorter than MENTION_MIN_CHARS (core) is refused (400). */
export const mentionSuggestionsRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/mention-suggestions',
  params: requestParams,
  query: z.object({ prefix: z.string().max(100).default('') }),
  answer: z.object({ suggestions: z.array(mentionSuggestionSchema) }),
});

/** The history before the entry `before` (its id), newest first. */
export const requestHistoryRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/history',
  params: requestParams,
  query: z.object({
    before: z
      .string()
      .regex(/^\d{1,19}$/)
      .optional(),
  }),
  answer: z.object({ history: z.array(typed<RequestHistoryEntry>()) }),
});

export const issueRequestTemplateSchema = z.object({
  templateId: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
});
export type IssueRequestTemplate = z.infer<typeof issueRequestTemplateSchema>;

export const issueRequestTemplatesRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/actions/issueRequest/templates',
  params: requestParams,
  answer: z.object({ templates: z.array(issueRequestTemplateSchema) }),
});

/** One template rendered with the request's data. */
export const issueRequestTemplateRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/actions/issueRequest/templates/:templateId',
  params: requestParams.extend({ templateId: z.string().min(1).max(200) }),
  answer: z.object({ subject: z.string(), body: typed<RichTextDoc>() }),
});
