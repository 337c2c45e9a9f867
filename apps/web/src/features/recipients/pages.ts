import { lazyPage, type PageComponent } from '../../view/page';

const AdminRecipientsPage = lazyPage(
  () => import('./AdminRecipientsPage'),
  (m) => m.AdminRecipientsPage,
);
const RecipientEditPage = lazyPage(
  () => import('./RecipientEditPage'),
  (m) => m.RecipientEditPage,
);

/** The pages of recipient administration, by view $type. */
export const recipientsPages: Record<string, PageComponent> = {
  adminRecipients: AdminRecipientsPage,
  adminRecipient: RecipientEditPage,
};
