import { defineConfig } from 'vitest/config';

// Three projects: pure core rules, web logic, and the server's integration tests against a real
// PostgreSQL. The server project runs once on the embedded PostgreSQL and, when a server answers at
// 127.0.0.1:5432 (CI), once more against it: see apps/server/test/globalSetup.ts.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'core', include: ['packages/core/test/**/*.test.ts'], environment: 'node' } },
      {
        oxc: { jsx: { runtime: 'automatic' } },
        test: { name: 'web', include: ['apps/web/test/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/test/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
