// Starts the built server for the browser journeys on a fresh embedded database.
import fs from 'node:fs';
import path from 'node:path';
import { root, runForeground } from '../scripts/lib.mjs';

const dataDir = path.join(root, '.tmp', 'e2e-data');
fs.rmSync(dataDir, { recursive: true, force: true });
runForeground(process.execPath, ['apps/server/dist/main.js'], {
  env: {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    PORT: process.env.E2E_PORT ?? '3210',
    HOST: '127.0.0.1',
    SEED_DEMO: 'true',
    ADMIN_PASSWORD: 'Admin-Pass-2026!',
    DEMO_PASSWORD: 'Demo-Pass-2026!',
    LOG_LEVEL: 'warn',
  },
});
