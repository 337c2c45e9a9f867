// SCIM 2.0 provisioning of users and groups by an identity provider (issue 17).

export { resyncClientRoles } from './groupRoles.js';
export { scimRoutes } from './routes.js';
