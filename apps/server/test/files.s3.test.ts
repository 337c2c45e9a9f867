import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';

// The same upload flow against an S3-compatible service (s3rver on loopback): the browser PUTs to a
// presigned URL, and the server judges what arrived the first time the file is used.

let t: TestContext;
let s3: S3rver;
let cookie: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dossier-s3-'));
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);

beforeAll(async () => {
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'dossier-files', configs: [] }],
  });
  const { port } = (await s3.run()) as { port: number };
  t = await createTestContext({
    files: {
      dir: path.join(dir, 'unused'),
      maxBytes: 1024 * 1024,
      s3: {
        bucket: 'dossier-files',
        endpoint: `http://127.0.0.1:${port}`,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      },
    },
  });
  await createUser(t.db, { id: 'alice' });
  await createUser(t.db, { id: 'bob' });
  cookie = await signIn(t.app, 'alice');
});
afterAll(async () => {
  await t.close();
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

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
