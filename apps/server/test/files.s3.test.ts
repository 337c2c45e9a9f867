import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, type TestContext, XHR } from './helpers.js';
import { type S3World, startS3World } from './support/s3.js';

// The same upload flow against an S3-compatible service (s3rver on loopback): the browser PUTs to a
// presigned URL, and the server judges what arrived the first time the file is used.

let t: TestContext;
let s3: S3World;
let cookie: string;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);

beforeAll(async () => {
  s3 = await startS3World('dossier-s3-');
  t = s3.t;
  await createUser(t.db, { id: 'alice' });
  await createUser(t.db, { id: 'bob' });
  cookie = await signIn(t.app, 'alice');
});
afterAll(() => s3.close());

async function uploadDirect(name: string, contentType: string, bytes: Buffer) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/files',
    headers: { ...XHR, cookie },
    payload: { name, contentType, contentLength: bytes.length, publicReadAccess: false },
  });
  expect(res.statusCode).toBe(200);
  const { key, uploadUrl, headers } = res.json();
  expect(uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dossier-files\//);
  const put = await fetch(uploadUrl, { method: 'PUT', headers, body: new Uint8Array(bytes) });
  expect(put.status).toBe(200);
  return key as string;
}

describe('files on S3-compatible storage', () => {
  it('serves a presigned upload once its bytes are judged, to its uploader only', async () => {
    const key = await uploadDirect('letter.pdf', 'application/pdf', PDF);
    const res = await t.app.inject({ url: `/files/${key}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    const other = await t.app.inject({
      url: `/files/${key}`,
      headers: { cookie: await signIn(t.app, 'bob') },
    });
    expect(other.statusCode).toBe(403);
  });

  it('refuses an executable that was uploaded directly, and removes it', async () => {
    const key = await uploadDirect('scan.pdf', 'application/pdf', ELF);
    const res = await t.app.inject({ url: `/files/${key}`, headers: { cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Executable files are not allowed.');
    expect((await t.app.inject({ url: `/files/${key}`, headers: { cookie } })).statusCode).toBe(404);
  });

  it('answers 404 while nothing has arrived', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/files',
      headers: { ...XHR, cookie },
      payload: { name: 'later.pdf', contentType: 'application/pdf', contentLength: 10 },
    });
    expect((await t.app.inject({ url: `/files/${res.json().key}`, headers: { cookie } })).statusCode).toBe(
      404,
    );
  });
});
