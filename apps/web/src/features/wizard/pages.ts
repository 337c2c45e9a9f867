import { lazyPage, type PageComponent } from '../../view/page';

const NewRequestPage = lazyPage(
  () => import('./NewRequestPage'),
  (m) => m.NewRequestPage,
);
const ReceiptPage = lazyPage(
  () => import('./ReceiptPage'),
  (m) => m.ReceiptPage,
);

/** The new-request wizard and the receipt, by view $type. */
export const wizardPages: Record<string, PageComponent> = {
  newRequest: NewRequestPage,
  requestReceipt: ReceiptPage,
};
