// What other features use of presence.
export { listViewers } from './repository.js';
export { onlineUsers, recheckViewing } from './service.js';
