// What other pages use of presence.
export { RequestPresence } from './RequestPresence';
