import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFileOwner } from '../src/files/access.js';
import { attachFile } from '../src/files/service.js';
import { loadSecret } from '../src/files/signing.js';
import { createLocalStorage } from '../src/files/storage.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';

let t: TestContext;
let alice: string;
let bob: string;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200), Buffer.from('PE\0\0')]);

async function announce(cookie: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/files', headers: { ...XHR, cookie }, payload: body });
}

async function upload(
  cookie: string,
  name: string,
  contentType: string,
  bytes: Buffer,
  publicReadAccess = false,
) {
  const res = await announce(cookie, { name, contentType, contentLength: bytes.length, publicReadAccess });
  expect(res.statusCode).toBe(200);
  const { key, uploadUrl } = res.json();
  const put = await t.app.inject({
    method: 'PUT',
    url: uploadUrl,
    headers: { 'content-type': contentType },
    payload: bytes,
  });
  return { key, uploadUrl, put };
}

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'alice', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, { id: 'bob' });
  alice = await signIn(t.app, 'alice');
  bob = await signIn(t.app, 'bob');
});
afterAll(() => t.close());

describe('files', () => {
  it('uploads through the signed URL and serves the file to its uploader only', async () => {
    const { key, put } = await upload(alice, 'report.pdf', 'application/pdf', PDF);
    expect(put.statusCode).toBe(200);
    const mine = await t.app.inject({ url: `/files/${key}`, headers: { cookie: alice } });
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.equals(PDF)).toBe(true);
    expect(mine.headers['content-type']).toBe('application/pdf');
    expect(mine.headers['content-disposition']).toContain('inline; filename="report.pdf"');
    expect(mine.headers['x-content-type-options']).toBe('nosniff');
    // Someone signed in who may not read it is told so (403), and nothing of the file.
    const refused = await t.app.inject({ url: `/files/${key}`, headers: { ...XHR, cookie: bob } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'You may not read this file.', code: 'forbidden' });
    expect(refused.headers['content-disposition']).toBeUndefined();
    expect(refused.body).not.toContain('report.pdf');
    // A browser opening the link gets the Access Denied page instead of raw JSON.
    const page = await t.app.inject({ url: `/files/${key}`, headers: { cookie: bob } });
    expect(page.statusCode).toBe(403);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('accessDenied');
    expect(page.body).not.toContain('report.pdf');
    // An unknown key is unknown (404), for the uploader as for anyone signed in.
    const unknown = await t.app.inject({
      url: '/files/NoSuchKey00000000000',
      headers: { ...XHR, cookie: alice },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('asks for a session first, whether or not the key exists, like any page', async () => {
    const { key } = await upload(alice, 'private.pdf', 'application/pdf', PDF);
    for (const path of [`/files/${key}`, '/files/NoSuchKey00000000000']) {
      expect((await t.app.inject({ url: path, headers: XHR })).statusCode).toBe(401);
      const browser = await t.app.inject({ url: path });
      expect(browser.statusCode).toBe(303);
      expect(browser.headers.location).toBe(`/signin?return-url=${encodeURIComponent(path)}`);
    }
  });

  it('serves a public file to anyone, and as a download when asked', async () => {
    const { key } = await upload(alice, 'logo.png', 'image/png', PNG, true);
    const res = await t.app.inject({ url: `/files/${key}?attachment=1&fileName=Logo%20ä.png` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Logo _.png"; filename*=UTF-8''Logo%20%C3%A4.png`,
    );
    // Other sites (a mail read in a browser) may show a public file; its policy still sandboxes it.
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['content-security-policy']).toMatch(/^sandbox;/);
  });

  it('makes public files an administrator capability', async () => {
    const res = await announce(bob, {
      name: 'leak.pdf',
      contentType: 'application/pdf',
      contentLength: PDF.length,
      publicReadAccess: true,
    });
    expect(res.statusCode).toBe(403);
    expect(await t.db.selectFrom('files').select('key').where('name', '=', 'leak.pdf').execute()).toEqual([]);
  });

  it('lets a link rename a download only to a clean name with the same extension', async () => {
    const { key } = await upload(alice, 'logo.png', 'image/png', PNG, true);
    const named = async (fileName: string) =>
      (await t.app.inject({ url: `/files/${key}?attachment=1&fileName=${encodeURIComponent(fileName)}` }))
        .headers['content-disposition'];
    expect(await named('Our logo.png')).toContain('filename="Our logo.png"');
    for (const bad of ['logo.png.exe', 'logo.exe', 'logo.pdf', 'logo\u202Egnp.exe', '../../etc/logo.png.bat'])
      expect(await named(bad)).toContain('filename="logo.png"');
  });

  it.each([
    'tool.bat.',
    'tool.bat .',
    'run.pif',
    'console.msc',
    'shortcut.url',
    'setup\u200B.exe',
    'setup.ex\u00ADe',
    'photo\u202Egpj.exe',
  ])('refuses the executable name %j, however it is dressed', async (name) => {
    const res = await announce(alice, { name, contentType: 'application/pdf', contentLength: 10 });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.name).toBe('Executable files are not allowed.');
  });

  it('never serves an SVG (or HTML) inline, and sandboxes whatever it serves', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const res = await announce(alice, {
      name: 'logo.svg',
      contentType: 'image/svg+xml',
      contentLength: svg.length,
    });
    expect(res.statusCode).toBe(200);
    const { key, uploadUrl } = res.json();
    const put = await t.app.inject({
      method: 'PUT',
      url: uploadUrl,
      headers: { 'content-type': 'image/svg+xml' },
      payload: svg,
    });
    if (put.statusCode !== 200) return; // refusing it at upload is just as safe
    const served = await t.app.inject({ url: `/files/${key}`, headers: { cookie: alice } });
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps names without invisible characters', async () => {
    const { key } = await upload(alice, 'rep\u200Bort\u202E.pdf', 'application/pdf', PDF);
    const row = await t.db
      .selectFrom('files')
      .select('name')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('report.pdf');
  });

  it('refuses executables by name and by content', async () => {
    const byName = await announce(alice, {
      name: 'setup.exe',
      contentType: 'application/pdf',
      contentLength: 10,
    });
    expect(byName.statusCode).toBe(400);
    expect(byName.json().fields.name).toBe('Executable files are not allowed.');
    const { key, put } = await upload(alice, 'invoice.pdf', 'application/pdf', EXE);
    expect(put.statusCode).toBe(400);
    expect(put.json().message).toBe('Executable files are not allowed.');
    expect((await t.app.inject({ url: `/files/${key}`, headers: { cookie: alice } })).statusCode).toBe(404);
  });

  it('refuses content that does not match its declared type', async () => {
    const { put } = await upload(alice, 'scan.pdf', 'application/pdf', PNG);
    expect(put.statusCode).toBe(400);
    expect(put.json().message).toBe('The content is image/png, not application/pdf.');
  });

  it('refuses a body of another size than announced, a forged signature and a second upload', async () => {
    const res = await announce(alice, {
      name: 'a.pdf',
      contentType: 'application/pdf',
      contentLength: PDF.length + 5,
    });
    const short = await t.app.inject({
      method: 'PUT',
      url: res.json().uploadUrl,
      headers: { 'content-type': 'application/pdf' },
      payload: PDF,
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('The file is smaller than announced.');
    const { uploadUrl } = await upload(alice, 'b.pdf', 'application/pdf', PDF);
    const forged = uploadUrl.replace(
      /signature=[^&]+/,
      'signature=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    );
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: forged,
          headers: { 'content-type': 'application/pdf' },
          payload: PDF,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: uploadUrl,
          headers: { 'content-type': 'application/pdf' },
          payload: PDF,
        })
      ).statusCode,
    ).toBe(409);
  });

  it('validates the announcement and needs a session', async () => {
    const bad = await announce(alice, { name: '', contentType: 'pdf', contentLength: 0 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['contentLength', 'contentType', 'name']);
    const big = await announce(alice, {
      name: 'x.pdf',
      contentType: 'application/pdf',
      contentLength: t.config.files.maxBytes + 1,
    });
    expect(big.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/files', headers: XHR, payload: { name: 'x' } }))
        .statusCode,
    ).toBe(401);
  });

  it('lets whoever may see the owner read an attached file', async () => {
    registerFileOwner('testThing', async (_db, actor, id) => id === 'shared' && actor.id === 'bob');
    const { key } = await upload(alice, 'shared.pdf', 'application/pdf', PDF);
    const actor = { id: 'alice' } as Parameters<typeof attachFile>[2];
    const files = {
      db: t.db,
      storage: createLocalStorage(t.config.files.dir),
      secret: await loadSecret(t.db, 'files.uploadSigning'),
      maxBytes: t.config.files.maxBytes,
    };
    await attachFile(files, t.db, actor, key, { type: 'testThing', id: 'shared' });
    expect((await t.app.inject({ url: `/files/${key}`, headers: { cookie: bob } })).statusCode).toBe(200);
    await expect(attachFile(files, t.db, actor, key, { type: 'testThing', id: 'other' })).rejects.toThrow(
      /attached elsewhere/,
    );
  });
});
