import type { PageComponent } from '../../view/page';
import { NewRequestPage } from './NewRequestPage';
import { ReceiptPage } from './ReceiptPage';

/** The new-request wizard and the receipt, by view $type. */
export const wizardPages: Record<string, PageComponent> = {
  newRequest: NewRequestPage,
  requestReceipt: ReceiptPage,
};
