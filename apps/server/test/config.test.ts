import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      seedDemo: true,
      databaseUrl: undefined,
      services: ['web', 'jobs', 'live', 'smtp'],
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('reads values', () => {
    const config = loadConfig({
      PORT: '8080',
      SEED_DEMO: 'false',
      DATABASE_URL: 'postgres://u@h/db',
      SERVICES: 'web',
    });
    expect(config).toMatchObject({
      port: 8080,
      seedDemo: false,
      databaseUrl: 'postgres://u@h/db',
      services: ['web'],
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid environment variable PORT: expected a whole number from 0 to 65535'],
    [
      { DATABASE_URL: 'mysql://x' },
      'Invalid environment variable DATABASE_URL: expected a postgres:// or postgresql:// connection URL',
    ],
    [{ SEED_DEMO: 'maybe' }, 'Invalid environment variable SEED_DEMO: expected true or false'],
    [
      { ADMIN_PASSWORD: 'short' },
      'Invalid environment variable ADMIN_PASSWORD: expected at least 8 characters',
    ],
    [
      { SERVICES: 'web,mail' },
      'Invalid environment variable SERVICES: expected a comma-separated list of web, jobs, live, smtp',
    ],
  ])('stops with one clear line for %o', (env, line) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(line);
  });
});
