// What other pages use of user administration: the roles editor of the account page.
export { RolesEditor, ScopeNamesContext } from './RolesEditor';
