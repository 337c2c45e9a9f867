// What other features use of invoices.
export { invoiceItem, listRequestInvoices } from './list.js';
export { CONFIRM_PAYMENT, paymentConfirmationActions } from './paymentConfirmation.js';
export { findInvoice, insertInvoice } from './repository.js';
