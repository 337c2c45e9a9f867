import { defineConfig } from '@playwright/test';

// Browser journeys in Debian's Chromium (never a downloaded browser) against the built app, which
// serve.mjs starts on a fresh embedded database with known demo passwords.
export const PORT = Number(process.env.E2E_PORT ?? 3210);
const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? PORT + 89);

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // Journeys run many steps of a real app on a 2-core machine; a minute leaves room without hiding a hang.
  timeout: 60_000,
  // The first visit of each page runs axe-core in it (accessibility.ts), which holds the page's
  // main thread for a second or two on this machine; expectations right after it get that time.
  expect: { timeout: 10_000 },
  // After the servers start: `admin` enrols the second factor the demo requires of administrators.
  globalSetup: './globalSetup.ts',
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : 'list',
  use: {
    baseURL: `http://localhost:${PORT}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: [
    {
      command: 'node --import tsx e2e/oidc.ts',
      cwd: '..',
      url: `http://127.0.0.1:${OIDC_PORT}/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
      env: { E2E_PORT: String(PORT), E2E_OIDC_PORT: String(OIDC_PORT) },
    },
    {
      command: 'node e2e/serve.mjs',
      cwd: '..',
      url: `http://localhost:${PORT}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        E2E_PORT: String(PORT),
        SSO_ISSUER_URL: `http://127.0.0.1:${OIDC_PORT}`,
        SSO_CLIENT_ID: 'dossier-e2e',
        SSO_CLIENT_SECRET: 'e2e-secret',
        SSO_ALLOW_HTTP: 'true',
        SSO_APPLICATIONS: JSON.stringify([
          { name: 'Records Archive', icon: '', url: 'https://archive.example/' },
        ]),
      },
    },
  ],
});
