// What other features use of requests.
export { loadVisibleRequest } from './access.js';
export { loadContentItemTypes } from './contentItemTypes.js';

export {
  attachRequestFile,
  REQUEST_FILE_OWNER,
  readableFilesOfRequests,
  readableRequestFiles,
  requestFieldKind,
} from './files.js';
export {
  fileDeniedToSender,
  fileOfRequest,
  PASSCODE_LETTER_FILE,
  RECEIVED_FILE,
} from './fileUseRepository.js';
export { listRequestHistory } from './historyRepository.js';
export { loadLetterContext, renderLetterOf } from './letters/letterData.js';
export { findRequestFile, markRequestIssued } from './letters/repository.js';
export { storeGeneratedRequestFile } from './letters/storeFile.js';
export { mentionableUsers, suggestMentions } from './mentionRepository.js';
export { editablePartsOf, saveRequestPart } from './parts.js';
export {
  canAddUrgentNote,
  canHandleRequest,
  canHoldRequest,
  canSubmitterAct,
  canViewRequest,
  isRequestSender,
  isRequestStaff,
} from './policy.js';
export { buildRequestPreview } from './preview.js';
export type { RequestRow } from './repository.js';
export { findRequest, reopenClosedRequest, setLegalHold, touchRequest } from './repository.js';
export { listSubmitterChoices } from './submitterRepository.js';
export {
  type RequestAccessColumns,
  staffRequests,
  staffScopes,
  userMayViewRequest,
  visibleRequests,
  visibleScopes,
} from './visibilityRepository.js';
