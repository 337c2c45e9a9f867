import { lazyPage, type PageComponent } from '../../view/page';
import { AccessDeniedPage } from './AccessDeniedPage';

const AdminPayeesPage = lazyPage(
  () => import('../payees/AdminPayeesPage'),
  (m) => m.AdminPayeesPage,
);
const PayeeEditPage = lazyPage(
  () => import('../payees/PayeeEditPage'),
  (m) => m.PayeeEditPage,
);
const AdminRecipientsPage = lazyPage(
  () => import('../recipients/AdminRecipientsPage'),
  (m) => m.AdminRecipientsPage,
);
const RecipientEditPage = lazyPage(
  () => import('../recipients/RecipientEditPage'),
  (m) => m.RecipientEditPage,
);
const AdminUserEditPage = lazyPage(
  () => import('../users/AdminUserEditPage'),
  (m) => m.AdminUserEditPage,
);
const AdminUsersPage = lazyPage(
  () => import('../users/AdminUsersPage'),
  (m) => m.AdminUsersPage,
);
const AccountPage = lazyPage(
  () => import('./AccountPage'),
  (m) => m.AccountPage,
);
const AccountConfirmedPage = lazyPage(
  () => import('./AccountResultPages'),
  (m) => m.AccountConfirmedPage,
);
const AccountCreatedPage = lazyPage(
  () => import('./AccountResultPages'),
  (m) => m.AccountCreatedPage,
);
const ChangePasswordPage = lazyPage(
  () => import('./AccountResultPages'),
  (m) => m.ChangePasswordPage,
);

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
