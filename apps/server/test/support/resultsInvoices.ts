import { expect } from 'vitest';
import { type TestContext, XHR } from '../helpers.js';

// What the result and invoice tests share: uploading a file through the real routes, request
// settings for a scope, and calling the actions.

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export async function uploadPdf(t: TestContext, cookie: string, name = 'result.pdf'): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/files',
    headers: { ...XHR, cookie },
    payload: { name, contentType: 'application/pdf', contentLength: PDF.length, publicReadAccess: false },
  });
  expect(res.statusCode).toBe(200);
  const { key, uploadUrl } = res.json();
  const put = await t.app.inject({
    method: 'PUT',
    url: uploadUrl,
    headers: { 'content-type': 'application/pdf' },
    payload: PDF,
  });
  expect(put.statusCode).toBe(200);
  return key;
}

/** A configuration at the scope whose request settings carry the given data. */
export async function setRequestSettings(t: TestContext, scopePath: string, data: Record<string, unknown>) {
  const id = `cfg${scopePath.replace(/[^a-z0-9]/gi, '')}`;
  await t.db
    .insertInto('configurations')
    .values({ id, scope_path: scopePath, name: scopePath })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await t.db
    .insertInto('configuration_entries')
    .values({
      configuration_id: id,
      id: 'requestSettings',
      parent_id: 'c',
      type: 'requestSettingsEntry',
      name: 'Request settings',
      data: JSON.stringify({ requestNumberPrefix: 'TST', ...data }),
    })
    .execute();
}

export function post(t: TestContext, cookie: string, url: string, payload: unknown = {}) {
  return t.app.inject({ method: 'POST', url, headers: { ...XHR, cookie }, payload: payload as object });
}

export function get(t: TestContext, cookie: string, url: string) {
  return t.app.inject({ url, headers: { ...XHR, cookie } });
}
