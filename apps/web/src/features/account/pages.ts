import type { PageComponent } from '../../view/page';
import { AdminPayeesPage } from '../payees/AdminPayeesPage';
import { PayeeEditPage } from '../payees/PayeeEditPage';
import { AdminRecipientsPage } from '../recipients/AdminRecipientsPage';
import { RecipientEditPage } from '../recipients/RecipientEditPage';
import { AdminUserEditPage } from '../users/AdminUserEditPage';
import { AdminUsersPage } from '../users/AdminUsersPage';
import { AccessDeniedPage } from './AccessDeniedPage';
import { AccountPage } from './AccountPage';
import { AccountConfirmedPage, AccountCreatedPage, ChangePasswordPage } from './AccountResultPages';

/** The pages of accounts and of user, recipient and payee administration, by view $type. */
export const accountPages: Record<string, PageComponent> = {
  account: AccountPage,
  accountCreate: AccountPage,
  accountCreated: AccountCreatedPage,
  accountConfirmed: AccountConfirmedPage,
  changePassword: ChangePasswordPage,
  accessDenied: AccessDeniedPage,
  adminUsers: AdminUsersPage,
  adminUser: AdminUserEditPage,
  adminRecipients: AdminRecipientsPage,
  adminRecipient: RecipientEditPage,
  adminPayees: AdminPayeesPage,
  adminPayee: PayeeEditPage,
};
