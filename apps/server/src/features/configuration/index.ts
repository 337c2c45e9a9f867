// What other features use of the configuration: the cached configurations and who may edit them.
export { configurationsFor } from './cache.js';
export type { EffectiveEntry } from './effective.js';
export {
  getEffectiveEntries,
  getEffectiveTemplate,
  getNearestScopeEntry,
  getPasswordPolicy,
  getPublicHolidays,
  getRequestSettings,
  getRetention,
  getScopeEntry,
  getTaskTypeSettings,
  listScopeEntries,
} from './effective.js';
export { assertCanEdit, assertCanView, requireConfigurationViewer } from './policy.js';
export { Writer, writeContentLines } from './preview/smartFormPdf.js';
export {
  CHANGE_CHANNEL as CONFIGURATION_CHANGE_CHANNEL,
  findConfiguration,
  findSecret,
} from './repository.js';
export { type EntrySavedHook, onEntrySaved } from './service.js';
