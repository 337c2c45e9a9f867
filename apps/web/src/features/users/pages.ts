import { lazyPage, type PageComponent } from '../../view/page';

const AdminUsersPage = lazyPage(
  () => import('./AdminUsersPage'),
  (m) => m.AdminUsersPage,
);
const AdminUserEditPage = lazyPage(
  () => import('./AdminUserEditPage'),
  (m) => m.AdminUserEditPage,
);

/** The pages of user administration, by view $type. */
export const usersPages: Record<string, PageComponent> = {
  adminUsers: AdminUsersPage,
  adminUser: AdminUserEditPage,
};
