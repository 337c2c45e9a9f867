import { z } from 'zod';
import { notificationSchema } from './notifications.js';
import { assignedTaskSchema } from './tasks.js';

// The messages of the live connection. The server pushes small summaries (a page fetches its own
// view again, with its own access checks); the client says what it shows and follows.

/** The people viewing a request, sent to each of them. */
export const presenceViewerSchema = z.object({ userId: z.string(), name: z.string() });
export type PresenceViewer = z.infer<typeof presenceViewerSchema>;
export const requestPresenceMessageSchema = z.object({
  $type: z.literal('requestPresence'),
  requestNumber: z.string(),
  viewers: z.array(presenceViewerSchema),
});
export type RequestPresenceMessage = z.infer<typeof requestPresenceMessageSchema>;

/** A result of the request was added or changed. */
export const requestResultMessageSchema = z.object({
  $type: z.literal('requestResult'),
  requestNumber: z.string(),
  resultId: z.string().optional(),
});
/** An entry of the request's correspondence was added or changed. */
export const requestCorrespondenceMessageSchema = z.object({
  $type: z.literal('requestCorrespondence'),
  requestNumber: z.string(),
  messageId: z.string().optional(),
});
/** The workflow added or completed a task of the request. */
export const requestTasksMessageSchema = z.object({
  $type: z.literal('requestTasks'),
  requestNumber: z.string(),
});
/** Anything of the request changed (every request event), by a person (by) or the workflow (null). */
export const requestChangedMessageSchema = z.object({
  $type: z.literal('requestChanged'),
  requestNumber: z.string(),
  by: z.string().nullable(),
  /** The request's version when the change was recorded; a copy with a greater one holds it. */
  version: z.number().optional(),
});
export type RequestChangedMessage = z.infer<typeof requestChangedMessageSchema>;
/** Something a page follows changed (the dashboard, an inbox message). */
export const topicChangedMessageSchema = z.object({ $type: z.literal('topicChanged'), topic: z.string() });

/** Every message the server pushes. */
export const liveMessageSchema = z.discriminatedUnion('$type', [
  notificationSchema,
  assignedTaskSchema,
  requestResultMessageSchema,
  requestCorrespondenceMessageSchema,
  requestPresenceMessageSchema,
  requestTasksMessageSchema,
  requestChangedMessageSchema,
  topicChangedMessageSchema,
]);
export type LiveMessage = z.infer<typeof liveMessageSchema>;
export type LiveMessageType = LiveMessage['$type'];

/** The client shows a request (null: it left it). */
export const viewingMessageSchema = z.object({
  $type: z.literal('viewing'),
  requestNumber: z
    .string()
    .regex(/^[A-Z0-9]{1,40}$/)
    .nullable(),
});
/** The client follows a topic (null: none). */
export const followingMessageSchema = z.object({
  $type: z.literal('following'),
  topic: z.string().nullable(),
});
export type ClientLiveMessage =
  | z.infer<typeof viewingMessageSchema>
  | z.infer<typeof followingMessageSchema>
  | { $type: 'ping' };
