import { lazyPage, type PageComponent } from '../../view/page';

const AdminPayeesPage = lazyPage(
  () => import('./AdminPayeesPage'),
  (m) => m.AdminPayeesPage,
);
const PayeeEditPage = lazyPage(
  () => import('./PayeeEditPage'),
  (m) => m.PayeeEditPage,
);

/** The pages of payee administration, by view $type. */
export const payeesPages: Record<string, PageComponent> = {
  adminPayees: AdminPayeesPage,
  adminPayee: PayeeEditPage,
};
