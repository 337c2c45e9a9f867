// The inbox shapes are core's (packages/core/src/inbox.ts); what only the pages need is here.

export {
  ATTACHMENT_CLASSIFICATIONS as CLASSIFICATIONS,
  type AttachmentClassification as Classification,
  type InboxAddress,
  type InboxAttachment,
  type InboxMessageItem,
  type InboxMessageView,
  type InboxRequestLink,
  type InboxSearchAnswer,
} from '@dossier/core';

/** The sender as a line: takes an InboxAddress, or the search answer's (its fields may be undefined). */
export function senderOf(from: { displayName?: string | undefined; email?: string | undefined }): string {
  if (from.displayName && from.email) return `${from.displayName} <${from.email}>`;
  return from.displayName || from.email || '';
}
