// What other features use of authentication.
export type { Actor } from './actor.js';
export { endUserSessions } from './sessions.js';
