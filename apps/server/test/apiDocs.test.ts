import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { API_ENDPOINTS } from '../src/features/api/index.js';
import { toOpenApiPath } from '../src/features/api/openapi.js';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { createTestContext, type TestContext } from './helpers.js';
import { addApiKey } from './support/apiKeys.js';

// The public API's documentation: the OpenAPI document, its readable page, and the example client
// of docs/api run against a real server (the endpoints themselves: api.test.ts).

const ACME = '/org/acme/';
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  invalidateConfigurationCache(t.db);
});

afterAll(async () => {
  await t.close();
});

describe('the OpenAPI document', () => {
  it('is served as valid JSON with every endpoint, the security scheme and the scopes', async () => {
    const res = await t.app.inject({ url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const doc = JSON.parse(res.body);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc['x-audience']).toBe('dossier-api');
    // Paths carry /api/v1 themselves, so the server URL is the bare origin.
    expect(doc.servers[0].url).toBe('http://localhost:80');
    expect(doc.components.securitySchemes.apiKeyJwt).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const endpoint of API_ENDPOINTS) {
      const op = doc.paths[toOpenApiPath(endpoint.route.path)]?.[endpoint.route.method.toLowerCase()];
      expect(op, `${endpoint.route.method} ${endpoint.route.path}`).toBeDefined();
      expect(op.security).toEqual([{ apiKeyJwt: [endpoint.scope] }]);
      expect(op.responses).toHaveProperty('401');
      expect(op.responses).toHaveProperty('403');
      if (endpoint.route.body) expect(op.requestBody.content['application/json'].schema.type).toBe('object');
    }
    expect(Object.keys(doc.paths)).toHaveLength(new Set(API_ENDPOINTS.map((e) => e.route.path)).size);
  });

  it('has a readable page listing every endpoint, without external assets', async () => {
    const res = await t.app.inject({ url: '/api/v1/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    for (const endpoint of API_ENDPOINTS) expect(res.body).toContain(toOpenApiPath(endpoint.route.path));
    expect(res.body).not.toMatch(/<script|https?:\/\/(?!elsewhere)[^"<]*\.(js|css)/);
  });

  it('answers unknown API paths with JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('notFound');
  });
});

describe('the example client in docs/api', () => {
  it('makes the full round trip against a running server', async () => {
    const key = await addApiKey(t.db, {
      kid: 'exampleClient',
      scopePath: ACME,
      apiScopes: [
        'fileWrite',
        'requestWrite',
        'requestRead',
        'requestResultRead',
        'requestInvoiceWrite',
        'requestInvoiceRead',
      ],
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dossier-api-'));
    const keyFile = path.join(dir, 'key.pem');
    fs.writeFileSync(keyFile, key.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const script = path.resolve(import.meta.dirname, '../../../docs/api/example-client.mjs');
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [script], {
        env: {
          ...process.env,
          DOSSIER_URL: `http://127.0.0.1:${port}`,
          DOSSIER_KEY_ID: 'exampleClient',
          DOSSIER_PRIVATE_KEY: keyFile,
        },
        timeout: 60_000,
      });
      expect(stdout).toMatch(/submitted request [A-Z]{3}\d{6}[A-Z]{3}\d{2}/);
      expect(stdout).toContain('is submitted');
      expect(stdout).toContain('110 AUD');
      expect(stdout).toContain('round trip complete');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
