import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_ERROR_TEXT } from '../src/features/sso/routes.js';
import { SSO_FAILURE_TEXT } from '../src/features/sso/service.js';
import { listMailTo } from '../src/mail/outbox.js';
import { createTestContext, createUser, type TestContext, XHR } from './helpers.js';
import { startTestProvider, type TestProvider } from './support/oidcProvider.js';
import { browse, DOSSIER } from './support/ssoBrowse.js';

// Single sign-on with the provider down when Dossier starts: the SSO error page, never a 500, and
// sign-in once it is up.

describe('the provider unreachable, passwords off without a break-glass account', () => {
  let down: TestContext;
  let port = 0;
  let late: TestProvider | undefined;
  beforeAll(async () => {
    // A port nobody listens on (yet): the provider is down when Dossier starts.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    down = await createTestContext({
      sso: {
        issuerUrl: `http://127.0.0.1:${port}`,
        clientId: 'late',
        clientSecret: 'late-secret',
        passwordHandling: false,
        applications: [],
        allowHttp: true,
      },
    });
    await createUser(down.db, { id: 'lou' });
    await down.db.updateTable('users').set({ external_user_id: 'idp-lou' }).where('id', '=', 'lou').execute();
  });
  afterAll(async () => {
    await down.close();
    await late?.close();
  });

  it('shows the SSO error page, not a bare 500, and signs in once the provider is back', async () => {
    const page = await down.app.inject({ url: '/signin?sso=1' });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(SSO_ERROR_TEXT);
    expect(page.body).toContain(SSO_FAILURE_TEXT.unreachable);
    const json = await down.app.inject({ url: '/signin?sso=1', headers: XHR });
    expect(json.json()).toMatchObject({ $type: 'ssoError', message: SSO_FAILURE_TEXT.unreachable });

    late = await startTestProvider(
      { id: 'late', secret: 'late-secret', redirectUris: [`${DOSSIER}/sso/callback`] },
      port,
    );
    late.setSubject('idp-lou');
    const { res, url } = await browse(down.app, '/signin?sso=1&return-url=%2Fhelp');
    expect(url.pathname).toBe('/help');
    expect(res.statusCode).toBe(200);
  });

  it('neither offers nor mails a password reset', async () => {
    const page = await down.app.inject({ url: '/forgot-password', headers: XHR });
    expect(page.json()).toMatchObject({ $type: 'forgotPassword', passwordsOff: true });
    const res = await down.app.inject({
      method: 'POST',
      url: '/reset-password',
      headers: { ...XHR, 'content-type': 'application/json' },
      payload: { email: 'lou@test.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(await listMailTo(down.db, 'lou@test.example')).toEqual([]);
    // Nor a password form for anybody.
    const local = await down.app.inject({
      url: '/signin?local=1',
      headers: { ...XHR, 'x-initial-state': '1' },
    });
    expect(local.json().view.breakGlass).toBeUndefined();
  });
});
