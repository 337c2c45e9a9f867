// The contracts between the server and the web app: the schema of every view and live message,
// with the types both sides use. See view.ts for what a view is.
export * from './account.js';
export * from './configuration.js';
export * from './dashboard.js';
export * from './downloads.js';
export * from './files.js';
export * from './health.js';
export * from './home.js';
export * from './inbox.js';
export * from './live.js';
export * from './notifications.js';
export * from './outbox.js';
export * from './pages.js';
export * from './recipients.js';
export * from './reports.js';
export * from './requestItems.js';
export * from './requestPage.js';
export * from './requests.js';
export * from './route.js';
export * from './scim.js';
export * from './secondFactor.js';
export * from './signIn.js';
export * from './skills.js';
export * from './tasks.js';
export * from './users.js';
export * from './view.js';
export * from './wizard.js';
