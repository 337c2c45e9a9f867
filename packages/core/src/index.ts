// First: zod's settings for the browser must be in place before any schema below is built.
import './zodInBrowser.js';

export * from './configuration/index.js';
export * from './contracts/index.js';
export * from './countries.js';
export * from './currencies.js';
export * from './directory.js';
export * from './errors.js';
export * from './home.js';
export * from './inbox.js';
export * from './json.js';
export * from './menu.js';
export * from './notifications.js';
export * from './passwordPolicy.js';
export * from './permissions.js';
export * from './reports/index.js';
export * from './requests/index.js';
export * from './richText.js';
export * from './roleString.js';
export * from './scopePath.js';
export * from './searchResult.js';
export * from './sso.js';
export * from './taskDue.js';
export * from './tasks.js';
export * from './timeZone.js';
export * from './userForm.js';
export * from './userState.js';
export * from './validators.js';
