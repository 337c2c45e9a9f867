import { expect } from 'vitest';
import type { DbOrTrx } from '../../src/db/database.js';
import { invalidateConfigurationCache } from '../../src/features/configuration/cache.js';
import { type TestContext, XHR } from '../helpers.js';

// What the retention tests share (issue 36): a retention entry for a scope, a date months ago, a
// file of a request uploaded through the real routes.

export async function setRetention(
  t: TestContext,
  scopePath: string,
  data: {
    deleteFilesAfterMonths: number | null;
    deIdentifyAfterMonths: number | null;
    keepAccessLogMonths?: number | null;
  },
) {
  const id = `ret${scopePath.replace(/[^a-z0-9]/gi, '')}`;
  await t.db
    .insertInto('configurations')
    .values({ id, scope_path: scopePath, name: scopePath })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await t.db
    .insertInto('configuration_entries')
    .values({
      configuration_id: id,
      id: 'retention',
      parent_id: 'c',
      type: 'retentionEntry',
      name: 'Retention',
      data: JSON.stringify(data),
    })
    .execute();
  invalidateConfigurationCache(t.db);
}

/** The moment `months` months and a day before now. */
export function monthsAgo(months: number): Date {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - months);
  d.setUTCDate(d.getUTCDate() - 1);
  return d;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Uploads a PDF (to local storage) and gives it to the request; answers its key. */
export async function requestFile(
  t: TestContext,
  cookie: string,
  requestNumber: string,
  name = 'result.pdf',
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/files',
    headers: { ...XHR, cookie },
    payload: { name, contentType: 'application/pdf', contentLength: PDF.length, publicReadAccess: false },
  });
  expect(res.statusCode).toBe(200);
  const { key, uploadUrl } = res.json();
  if (uploadUrl.startsWith('/')) {
    const put = await t.app.inject({
      method: 'PUT',
      url: uploadUrl,
      headers: { 'content-type': 'application/pdf' },
      payload: PDF,
    });
    expect(put.statusCode).toBe(200);
  } else {
    const { headers } = res.json();
    const put = await fetch(uploadUrl, { method: 'PUT', headers, body: new Uint8Array(PDF) });
    expect(put.status).toBe(200);
    await t.db
      .updateTable('files')
      .set({ uploaded_at: new Date(), size: String(PDF.length) })
      .where('key', '=', key)
      .execute();
  }
  await giveToRequest(t.db, key, requestNumber);
  return key as string;
}

export async function giveToRequest(db: DbOrTrx, key: string, requestNumber: string) {
  await db
    .updateTable('files')
    .set({ owner_type: 'request', owner_id: requestNumber })
    .where('key', '=', key)
    .execute();
}
