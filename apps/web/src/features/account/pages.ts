import { lazyPage, type PageComponent } from '../../view/page';
import { AccessDeniedPage } from './AccessDeniedPage';

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

/** The pages of a user's own account, by view $type. */
export const accountPages: Record<string, PageComponent> = {
  account: AccountPage,
  accountCreate: AccountPage,
  accountCreated: AccountCreatedPage,
  accountConfirmed: AccountConfirmedPage,
  changePassword: ChangePasswordPage,
  accessDenied: AccessDeniedPage,
};
