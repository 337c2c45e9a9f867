import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccessLogMonths, flushAccessLogs } from '../src/audit/accessLog.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { addApiKey, apiToken, bearer, type TestApiKey } from './support/apiKeys.js';
import { pdfText } from './support/pdf.js';
import { insertTestRequest } from './support/requests.js';
import { uploadPdf } from './support/resultsInvoices.js';

// The access log (issue 36): every read of a request's personal data writes exactly one entry (the
// page, its parts, the preview, a file through the page and the API, an API read, an export naming
// applicants); the log refuses UPDATE, DELETE and TRUNCATE at the database; the Access tab shows it to
// administrators and managers of the request's scope only.

let t: TestContext;
let n: string;
let fileKey: string;
let resultId: string;
let api: TestApiKey;
const cookies: Record<string, string> = {};
const USERS = {
  ladmin: [{ role: 'c:roles:admin', scope: '/' }],
  lmanager: [{ role: 'c:roles:manager', scope: '/org/acme/' }],
  lhandler: [{ role: 'c:roles:handler', scope: '/' }],
  lglobex: [{ role: 'c:roles:manager', scope: '/org/globex/' }],
  lsender: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
};

const entries = async () => {
  await flushAccessLogs();
  return t.db.selectFrom('access_log').selectAll().orderBy('id').execute();
};

beforeAll(async () => {
  t = await createTestContext();
  for (const [id, roles] of Object.entries(USERS)) {
    await createUser(t.db, { id, roles });
    cookies[id] = await signIn(t.app, id);
  }
  n = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open' });
  fileKey = await uploadPdf(t, cookies.lhandler as string, 'records.pdf');
  await t.db
    .updateTable('files')
    .set({ owner_type: 'request', owner_id: n, classification: 'result' })
    .where('key', '=', fileKey)
    .execute();
  const result = await t.db
    .insertInto('request_results')
    .values({ request_number: n, file_key: fileKey, quality_assured_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  resultId = result.id;
  api = await addApiKey(t.db, {
    kid: 'accessKey',
    scopePath: '/org/acme/',
    apiScopes: ['requestRead', 'requestResultRead', 'fileRead'],
  });
});

afterAll(async () => {
  await t?.close();
});

describe('every read of a request', () => {
  const page = (url: string, headers: Record<string, string> = XHR) =>
    t.app.inject({ url, headers: { ...headers, cookie: cookies.lhandler as string } });
  const viaApi = async (url: string) => t.app.inject({ url, headers: bearer(await apiToken(api)) });
  // The expectations are read after beforeAll (the file key is made there).
  const reads: [string, () => Promise<{ statusCode: number }>, () => Record<string, unknown>][] = [
    ['the page', () => page(`/requests/${n}`), () => ({ what: 'request', via: 'page', user_id: 'lhandler' })],
    ['the page as HTML', () => page(`/requests/${n}`, {}), () => ({ what: 'request', via: 'page' })],
    ['older history', () => page(`/requests/${n}/history`), () => ({ what: 'history', via: 'page' })],
    ['the hover preview', () => page(`/requests/${n}/preview`), () => ({ what: 'preview', via: 'page' })],
    ['a file', () => page(`/files/${fileKey}`), () => ({ what: 'file', via: 'page', file_key: fileKey })],
    [
      'a file download',
      () => page(`/files/${fileKey}?attachment=1`),
      () => ({ what: 'file', file_key: fileKey }),
    ],
    [
      'the API: the request',
      () => viaApi(`/api/v1/requests/${n}`),
      () => ({
        what: 'request',
        via: 'api',
        user_id: null,
        api_client: expect.stringContaining('accessKey'),
      }),
    ],
    [
      'the API: its results',
      () => viaApi(`/api/v1/requests/${n}/results`),
      () => ({ what: 'request', via: 'api' }),
    ],
    [
      'the API: a result file',
      () => viaApi(`/api/v1/requests/${n}/results/${resultId}/file`),
      () => ({ what: 'file', via: 'api', file_key: fileKey }),
    ],
    ['the API: a file', () => viaApi(`/api/v1/files/${fileKey}`), () => ({ what: 'file', via: 'api' })],
  ];

  for (const [name, read, expected] of reads) {
    it(`${name} writes exactly one entry`, async () => {
      const before = (await entries()).length;
      const res = await read();
      expect(res.statusCode).toBe(200);
      const after = await entries();
      expect(after.length).toBe(before + 1);
      expect(after.at(-1)).toMatchObject({ request_number: n, recipient_access_id: null, ...expected() });
    });
  }

  it('an export naming applicants writes one entry with its filter and row count', async () => {
    const before = (await entries()).length;
    const res = await t.app.inject({
      url: '/reports/requests/open?export=csv&filter.scope=/org/acme/',
      headers: { ...XHR, cookie: cookies.lmanager as string },
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\n').length - 1;
    const after = await entries();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)).toMatchObject({
      what: 'export',
      via: 'export',
      user_id: 'lmanager',
      request_number: null,
      detail: { report: 'openRequests', filter: { scope: '/org/acme/' }, rows: lines },
    });
  });

  it('keeps a filter of quotes, backslashes and braces as it was typed', async () => {
    const scope = '/org/acme/"q\\{1,2}\'/';
    const res = await t.app.inject({
      url: `/reports/requests/open?export=csv&filter.scope=${encodeURIComponent(scope)}`,
      headers: { ...XHR, cookie: cookies.lmanager as string },
    });
    expect(res.statusCode).toBe(200);
    expect((await entries()).at(-1)?.detail).toMatchObject({ filter: { scope } });
  });

  it('a refused read writes nothing', async () => {
    const before = (await entries()).length;
    const res = await t.app.inject({
      url: `/requests/${n}`,
      headers: { ...XHR, cookie: cookies.lglobex as string },
    });
    expect(res.statusCode).toBe(403);
    expect((await entries()).length).toBe(before);
  });
});

describe('the Access Log report', () => {
  const run = (user: string, query: string) =>
    t.app.inject({
      url: `/reports/access-log/filter?${query}`,
      headers: { ...XHR, cookie: cookies[user] as string },
    });

  it('counts the reads per reader, filtered by user, applicant and request', async () => {
    await flushAccessLogs();
    const res = await run('ladmin', `filter.request=${n}`);
    expect(res.statusCode).toBe(200);
    const rows = res.json().rows as { user: string; reads: number; api: number; files: number }[];
    expect(rows.find((r) => r.user === 'User lhandler')).toMatchObject({ files: 2, api: 0 });
    expect(rows.find((r) => r.user.includes('accessKey'))?.api).toBe(4);
    const byUser = (await run('ladmin', 'filter.user=lhandler')).json().rows;
    expect(byUser.map((r: { user: string }) => r.user)).toEqual(['User lhandler']);
    const byApplicant = (await run('ladmin', 'filter.applicant=nobody-such')).json().rows;
    expect(byApplicant).toEqual([]);
  });

  it("shows another scope's manager none of this scope's entries", async () => {
    const res = await run('lglobex', `filter.request=${n}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().rows).toEqual([]);
  });

  it('exports one line per entry, and the export is itself an entry', async () => {
    const before = (await entries()).length;
    const res = await t.app.inject({
      url: `/reports/access-log/filter?filter.request=${n}&export=csv`,
      headers: { ...XHR, cookie: cookies.ladmin as string },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Applicant');
    const ofRequest = (await entries()).filter((e) => e.request_number === n).length;
    expect(res.body.trim().split('\n').length - 1).toBe(ofRequest);
    const after = await entries();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)).toMatchObject({
      what: 'export',
      detail: { report: 'accessLog', filter: { request: n } },
    });
  });

  it('refuses a handler (no reports) and answers 400 to a bad filter', async () => {
    expect((await run('lhandler', '')).statusCode).toBe(403);
    const bad = await run('ladmin', `filter.request=${'X'.repeat(30)}`);
    expect(bad.statusCode).toBe(400);
  });
});

describe('the log is append-only', () => {
  // The test connects as the database's owner (a superuser): the triggers refuse even that.
  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    expect((await entries()).length).toBeGreaterThan(0);
    await expect(sql`update access_log set user_id = 'someone'`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from access_log`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate access_log`.execute(t.db)).rejects.toThrow(/append-only/);
    const month = await sql<{ name: string }>`select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid where i.inhparent = 'access_log'::regclass limit 1`.execute(t.db);
    await expect(sql`truncate ${sql.table(month.rows[0]?.name as string)}`.execute(t.db)).rejects.toThrow(
      /append-only/,
    );
  });

  it('keeps the next months present, and a default partition for any other time', async () => {
    // The daily job's work, here five months ahead (the migration made three); twice is a no-op.
    expect(await ensureAccessLogMonths(t.db, 5)).toBeGreaterThan(0);
    expect(await ensureAccessLogMonths(t.db, 5)).toBe(0);
    const ahead = new Date(Date.now() + 130 * 86_400_000);
    await t.db
      .insertInto('access_log')
      .values({ user_id: 'ladmin', what: 'request', via: 'page', request_number: 'Y', at: ahead })
      .execute();
    const month = await sql<{ part: string }>`select tableoid::regclass::text as part from access_log
      where request_number = 'Y'`.execute(t.db);
    expect(month.rows[0]?.part).toMatch(/^access_log_\d{4}_\d{2}$/);
    await t.db
      .insertInto('access_log')
      .values({
        user_id: 'ladmin',
        what: 'request',
        via: 'page',
        request_number: 'X',
        at: new Date('2001-01-01'),
      })
      .execute();
    const where = await sql<{ part: string }>`select tableoid::regclass::text as part from access_log
      where request_number = 'X'`.execute(t.db);
    expect(where.rows[0]?.part).toBe('access_log_default');
  });
});

describe('the Access tab', () => {
  const access = (user: string, query = '') =>
    t.app.inject({
      url: `/requests/${n}/access${query}`,
      headers: { ...XHR, cookie: cookies[user] as string },
    });

  it('shows administrators and managers of the scope who read the request, newest first', async () => {
    await flushAccessLogs();
    for (const user of ['ladmin', 'lmanager']) {
      const res = await access(user);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.entries.length).toBeGreaterThan(5);
      expect(
        body.entries.some(
          (e: { who: string; what: string }) => e.who === 'User lhandler' && e.what === 'request',
        ),
      ).toBe(true);
      expect(body.entries.find((e: { what: string }) => e.what === 'file').fileName).toBe('records.pdf');
      const times = body.entries.map((e: { at: string }) => e.at);
      expect([...times].sort().reverse()).toEqual(times);
    }
  });

  it('shows a read of a moment before, written on the way (the queue of this instance)', async () => {
    await flushAccessLogs();
    const opened = await t.app.inject({
      url: `/requests/${n}/preview`,
      headers: { ...XHR, cookie: cookies.lhandler as string },
    });
    expect(opened.statusCode).toBe(200);
    const body = (await access('lmanager')).json();
    expect(body.entries[0]).toMatchObject({ who: 'User lhandler', what: 'preview' });
  });

  it('offers the tab on the request page to them only', async () => {
    const view = async (user: string) =>
      (
        await t.app.inject({ url: `/requests/${n}`, headers: { ...XHR, cookie: cookies[user] as string } })
      ).json();
    expect((await view('ladmin')).canViewAccess).toBe(true);
    expect((await view('lhandler')).canViewAccess).toBe(false);
  });

  it("refuses a handler and another scope's manager", async () => {
    expect((await access('lhandler')).statusCode).toBe(403);
    expect((await access('lglobex')).statusCode).toBe(403);
  });

  it('answers 400 to a bad page and 404 to an unknown request', async () => {
    const bad = await access('ladmin', '?pageOffset=minus');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.pageOffset).toBeTruthy();
    const unknown = await t.app.inject({
      url: '/requests/ACM251122QXT42/access',
      headers: { ...XHR, cookie: cookies.ladmin as string },
    });
    expect([400, 404]).toContain(unknown.statusCode);
  });

  it('pages', async () => {
    // Reads queued by the tests before land now, not between the two pages.
    await flushAccessLogs();
    const first = (await access('ladmin')).json();
    const later = (await access('ladmin', '?pageOffset=3')).json();
    expect(later.entries[0].id).toBe(first.entries[3].id);
  });

  it('pages by the last entry shown, to the microsecond, each entry once', async () => {
    const many = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open' });
    // 130 reads, some in the same millisecond in an order their ids do not follow.
    await sql`insert into access_log (at, user_id, request_number, what, via)
      select now() - make_interval(secs => (g / 3) * 0.001) - make_interval(secs => (g % 3) * 0.0000017),
        'lhandler', ${many}, 'request', 'page'
      from generate_series(1, 130) g`.execute(t.db);
    const all = await sql<{ id: string }>`select id::text from access_log where request_number = ${many}
      order by at desc, id desc`.execute(t.db);
    const seen: string[] = [];
    let before: string | null = '';
    for (let pages = 0; before !== null && pages < 10; pages++) {
      const res: Awaited<ReturnType<typeof t.app.inject>> = await t.app.inject({
        url: `/requests/${many}/access${before ? `?before=${encodeURIComponent(before)}` : ''}`,
        headers: { ...XHR, cookie: cookies.ladmin as string },
      });
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...res.json().entries.map((e: { id: string }) => e.id));
      before = res.json().next;
      expect(before === null).toBe(!res.json().hasMore);
    }
    expect(seen).toEqual(all.rows.map((r) => r.id));
    for (const bad of ['yesterday', '2026-02-30T00:00:00Z_1', '2026-01-01T00:00:00Z_12345678901234567890']) {
      const res = await access('ladmin', `?before=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().fields.before).toBe('Must be the cursor of an entry.');
    }
  });
});

describe('the accounting of disclosures', () => {
  it("lists what left Dossier about the request's applicant: sender downloads, API reads, mail", async () => {
    const download = await t.app.inject({
      url: `/files/${fileKey}?attachment=1`,
      headers: { ...XHR, cookie: cookies.lsender as string },
    });
    expect(download.statusCode).toBe(200);
    await t.db
      .insertInto('mail_outbox')
      .values({
        to: 'claims@acme.example',
        subject: 'Your records',
        text: 'x',
        html: null,
        next_attempt_at: new Date(),
        sent_at: new Date(),
        scope: '/org/acme/',
        request_number: n,
        attachments: JSON.stringify([{ fileKey, name: 'records.pdf', contentType: 'application/pdf' }]),
      })
      .execute();
    await flushAccessLogs();
    const res = await t.app.inject({
      url: `/requests/${n}/disclosures`,
      headers: { ...XHR, cookie: cookies.lmanager as string },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Accounting of disclosures');
    expect(text).toMatch(/Download\s+User lsender/);
    expect(text.match(/\s{2}API\s{2,}API key Key accessKey/g)?.length).toBe(2);
    expect(text.match(/\s{2}Download\s{2}/g)?.length).toBe(1);
    expect(text).toMatch(/Mail\s+claims@acme.example/);
  });

  it("refuses a handler and another scope's manager", async () => {
    for (const user of ['lhandler', 'lglobex'])
      expect(
        (
          await t.app.inject({
            url: `/requests/${n}/disclosures`,
            headers: { ...XHR, cookie: cookies[user] as string },
          })
        ).statusCode,
      ).toBe(403);
  });
});
