// SCIM 2.0 provisioning of users and groups by an identity provider (issue 17).
export { scimRoutes } from './routes.js';
