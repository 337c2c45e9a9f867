// The query fields of search and filter forms live in core (queryFields.ts), where the route
// contracts are built from them; `optional` is their short name on the server.
export { dateQuery, optionalQuery as optional } from '@dossier/core';
