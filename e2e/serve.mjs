// Starts the built server for the browser journeys on a fresh embedded database.
import fs from 'node:fs';
import path from 'node:path';
import { nodeRuntime, root, runForeground } from '../scripts/lib.mjs';

const port = process.env.E2E_PORT ?? '3210';
// One folder per port, so journeys of several checkouts or runs on one machine do not collide.
const dataDir = path.join(root, '.tmp', `e2e-data-${port}`);
fs.rmSync(dataDir, { recursive: true, force: true });
runForeground(nodeRuntime(), ['apps/server/dist/main.js'], {
  env: {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    PORT: port,
    HOST: '127.0.0.1',
    SEED_DEMO: 'true',
    ADMIN_PASSWORD: 'Admin-Pass-2026!',
    DEMO_PASSWORD: 'Demo-Pass-2026!',
    LOG_LEVEL: 'warn',
    SELF_REGISTRATION: 'true',
    // A passkey alone may sign in (passkeys.spec.ts signs in so, besides as the second step).
    PASSKEY_SIGNIN: 'true',
    // The second step offers to remember the browser (passkeys.spec.ts sees it offered).
    SIGNIN_REMEMBER_DEVICE: 'true',
    // Every answer of a route with a contract is checked against it (a drift answers 500).
    CHECK_ANSWERS: 'true',
    // Mail goes to a test SMTP listener that journeys checking real delivery start (issueRequest);
    // while none listens, mail waits in the outbox, where the other journeys read it.
    SMTP_URL: `smtp://127.0.0.1:${Number(port) + 25}`,
    // Mail in: the built-in listener takes mail for the inbox address (e2e/inbox.spec.ts sends to it).
    SMTP_LISTEN_PORT: String(Number(port) + 26),
    INBOX_ADDRESS: 'inbox@dossier.localhost',
  },
});
