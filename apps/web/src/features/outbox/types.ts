import type { MailStatus } from '@dossier/core';

// The views of the admin outbox, as apps/server/src/features/outbox/service.ts answers them.

export const MAIL_STATUS_COLORS: Record<MailStatus, string> = {
  waiting: 'yellow',
  sent: 'teal',
  failed: 'red',
};
