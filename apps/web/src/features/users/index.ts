// What other pages use of user administration: the personal fields and the roles editor.
export { RolesEditor } from './RolesEditor';
export { ErrorText, FlagField, UserFields, type UserFieldValues } from './UserFields';
