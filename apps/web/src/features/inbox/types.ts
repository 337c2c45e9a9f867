import type { InboxAddress } from '@dossier/core';

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

export function senderOf(from: InboxAddress): string {
  if (from.displayName && from.email) return `${from.displayName} <${from.email}>`;
  return from.displayName || from.email || '';
}
