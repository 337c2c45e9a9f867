// The query fields of search and filter forms live in core (searchResult.ts), beside the paging,
// so a route contract can use them; the server's features take them from here as before.
export { dateQuery, optionalQuery as optional } from '@dossier/core';
