// npm start: install and build what is missing, then run the server (embedded PostgreSQL unless
// DATABASE_URL is set, demo data on an empty database unless SEED_DEMO=false).
import { ensureBuilt, ensureDependencies, nodeRuntime, runForeground } from './lib.mjs';

ensureDependencies();
ensureBuilt();
runForeground(nodeRuntime(), ['--enable-source-maps', 'apps/server/dist/main.js']);
