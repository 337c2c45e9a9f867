// npm run dev: the server restarted on change (tsx watch) and the Vite dev server with hot reload.
// Open http://localhost:5173; Vite serves the code and hands every other request to the server.
import { ensureDependencies, runForeground } from './lib.mjs';

ensureDependencies();
const server = 'tsx watch --clear-screen=false apps/server/src/main.ts';
runForeground('npx', [
  'concurrently',
  '--kill-others',
  '--names',
  'server,web',
  `WEB_DEV_SERVER=http://localhost:5173 ${server}`,
  'npm exec -w @dossier/web -- vite --port 5173 --strictPort',
]);
