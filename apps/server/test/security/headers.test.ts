import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketSources } from '../../src/http/securityHeaders.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from '../helpers.js';

// Security headers (issue 13): every kind of answer carries them, and stored files are sandboxed.

let t: TestContext;
let alice: string;
beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'alice' });
  alice = await signIn(t.app, 'alice');
});
afterAll(() => t.close());

function directives(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .flatMap(([name, ...values]) => (name ? [[name, values] as const] : [])),
  );
}

function expectPageHeaders(res: LightMyRequestResponse) {
  const csp = directives(res);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(csp.get('connect-src')).toEqual(["'self'", 'ws://localhost:80', 'wss://localhost:80']);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.has('upgrade-insecure-requests')).toBe(false);
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('same-origin');
  // PUBLIC_URL is not https here: no HSTS (it would pin browsers to a scheme the site lacks).
  expect(res.headers['strict-transport-security']).toBeUndefined();
}

describe('security headers', () => {
  it('are on the HTML shell page', async () => {
    const res = await t.app.inject({ url: '/signin', headers: { host: 'localhost:80' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expectPageHeaders(res);
  });

  it('are on a JSON view, a JSON error and the health check', async () => {
    const view = await t.app.inject({ url: '/', headers: { ...XHR, cookie: alice, host: 'localhost:80' } });
    expect(view.statusCode).toBe(200);
    expect(view.headers['content-type']).toContain('application/json');
    expectPageHeaders(view);
    const refused = await t.app.inject({ url: '/', headers: { ...XHR, host: 'localhost:80' } });
    expect(refused.statusCode).toBe(401);
    expectPageHeaders(refused);
    expectPageHeaders(await t.app.inject({ url: '/healthz', headers: { host: 'localhost:80' } }));
  });

  it('are on a 404, as a page and as JSON', async () => {
    const page = await t.app.inject({ url: '/no/such/page', headers: { host: 'localhost:80' } });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
    expectPageHeaders(page);
    const json = await t.app.inject({ url: '/no/such/page', headers: { ...XHR, host: 'localhost:80' } });
    expect(json.statusCode).toBe(404);
    expectPageHeaders(json);
  });

  it('sandbox a file download, whatever its type', async () => {
    for (const [name, type, bytes] of [
      ['notes.txt', 'text/plain', Buffer.from('plain text')],
      ['data.csv', 'text/csv', Buffer.from('a,b\n1,2\n')],
    ] as const) {
      const announced = await t.app.inject({
        method: 'POST',
        url: '/files',
        headers: { ...XHR, cookie: alice },
        payload: { name, contentType: type, contentLength: bytes.length },
      });
      expect(announced.statusCode).toBe(200);
      const { key, uploadUrl } = announced.json();
      const put = await t.app.inject({
        method: 'PUT',
        url: uploadUrl,
        headers: { 'content-type': type },
        payload: bytes,
      });
      expect(put.statusCode).toBe(200);
      const res = await t.app.inject({ url: `/files/${key}`, headers: { cookie: alice } });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
      const csp = directives(res);
      expect(csp.has('sandbox')).toBe(true);
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      // Only types a browser shows harmlessly are inline; the rest is always an attachment.
      expect(res.headers['content-disposition']).toMatch(type === 'text/plain' ? /^inline;/ : /^attachment;/);
    }
  });

  it('let the single sign-on window keep its opener, and no other page', async () => {
    const app = await t.app.inject({ url: '/no/such/page' });
    expect(app.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    for (const url of ['/signin', '/signin?sso=1', '/sso/reauthenticated', '/sso/callback?code=x']) {
      const res = await t.app.inject({ url });
      expect(res.headers['cross-origin-opener-policy'], url).toBe('unsafe-none');
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
    }
  });

  it('names no websocket source for a Host header that is not a host', () => {
    expect(socketSources('dossier.example:8443', false)).toBe(
      'ws://dossier.example:8443 wss://dossier.example:8443',
    );
    expect(socketSources('dossier.example', true)).toBe('wss://dossier.example');
    expect(socketSources('[::1]:3000', true)).toBe('wss://[::1]:3000');
    for (const bad of ["evil; script-src 'unsafe-inline'", 'a b', 'x,y', '', undefined]) {
      expect(socketSources(bad, false)).toBe('');
    }
  });
});

describe('security headers over https', () => {
  it('add HSTS and upgrade-insecure-requests, and only wss: for the socket', async () => {
    const secure = await createTestContext({ publicUrl: 'https://dossier.example' });
    try {
      // Behind a proxy the Host header may name the inside; the socket is on the public host.
      const res = await secure.app.inject({ url: '/signin', headers: { host: 'backend:3000' } });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const csp = directives(res);
      expect(csp.has('upgrade-insecure-requests')).toBe(true);
      expect(csp.get('connect-src')).toEqual(["'self'", 'wss://dossier.example']);
    } finally {
      await secure.close();
    }
  });
});

describe('security headers in development', () => {
  it('allow the inline script of the Vite dev server, and only there', async () => {
    const dev = await createTestContext({ webDevServer: 'http://localhost:5173' });
    try {
      const res = await dev.app.inject({ url: '/healthz', headers: { host: 'localhost:5173' } });
      const csp = directives(res);
      expect(csp.get('script-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get('connect-src')).toEqual(["'self'", 'ws://localhost:5173', 'wss://localhost:5173']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    } finally {
      await dev.close();
    }
  });
});
