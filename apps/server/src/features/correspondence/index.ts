// What other features use of correspondence.
export { listRequestCorrespondence } from './list.js';
export type { StoredAttachment } from './repository.js';
export { insertCorrespondence, setDeliveryStatusByOutboxId } from './repository.js';
export { editCorrespondence } from './service.js';
