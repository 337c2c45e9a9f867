import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page } from '@playwright/test';
import type pg from 'pg';
import { createRequestNumber } from '../packages/core/src/requestNumber';
import { withDatabase } from './db';
import { ADMIN, signIn, test } from './fixtures';
import { XSS_PAYLOADS } from './xssCorpus';

// The cross-site scripting corpus (issue 13): every payload of xssCorpus.ts is stored, as it is,
// in every free-text field a page shows again (written straight to the database, so the test is
// of the pages and not of the checks on the way in), and every page that shows the field is opened
// in Chromium. A hook records any call of __xss, any dialog, any script the security policy had to
// block and any element or attribute the payload's markup made: all must stay at zero.

const MARK = 'Xsscorpus';
const PER_OBJECT = 10;
// PostgreSQL cannot store NUL (and the server strips control characters on the way in).
const CORPUS = XSS_PAYLOADS.map((p) => p.replaceAll('\u0000', ''));
/** Where the summary goes for npm run test:security. */
const SUMMARY = path.resolve(import.meta.dirname, '..', '.tmp', 'security', 'xss.txt');

test.describe.configure({ mode: 'serial' });
// Dozens of page loads each, on a 2-core machine.
test.setTimeout(600_000);

interface Seeded {
  requests: string[];
  inboxIds: string[];
  outboxIds: string[];
}

/** Inserts a copy of `table`'s row `where` with `changes`; generated columns are left to the table. */
async function copyRow(
  client: pg.Client,
  table: string,
  where: string,
  changes: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const columns = (
    await client.query(
      `select column_name from information_schema.columns
        where table_name = $1 and is_generated = 'NEVER' and column_default is null or
              table_name = $1 and is_generated = 'NEVER' and column_name in (${Object.keys(changes)
                .map((_, i) => `$${i + 2}`)
                .join(',')})`,
      [table, ...Object.keys(changes)],
    )
  ).rows.map((r) => `"${r.column_name}"`);
  const base = (await client.query(`select row_to_json(t) as row from ${table} t where ${where} limit 1`))
    .rows[0].row;
  const row = { ...base, ...changes };
  const list = columns.join(', ');
  const inserted = await client.query(
    `insert into ${table} (${list}) select ${list} from json_populate_record(null::${table}, $1) returning *`,
    [JSON.stringify(row)],
  );
  return inserted.rows[0];
}

const richText = (text: string, href: string) => ({
  type: 'richText',
  content: {
    type: 'doc',
    content: [
      {
        type: 'paragraph',
        content: [
          { type: 'text', text },
          { type: 'text', text: ' link', marks: [{ type: 'link', attrs: { href } }] },
        ],
      },
    ],
  },
});

async function seed(): Promise<Seeded> {
  return withDatabase(async (client) => {
    const base = (
      await client.query(
        `select request_number from requests where scope like '/org/acme/%' and status <> 'closed'
          order by submitted_at desc limit 1`,
      )
    ).rows[0].request_number as string;
    const fileKey = (await client.query(`select key from files order by created_at limit 1`)).rows[0]?.key;
    let seed = 1;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const seeded: Seeded = { requests: [], inboxIds: [], outboxIds: [] };
    const request = (
      await client.query(`select applicant, recipient, content from requests where request_number = $1`, [
        base,
      ])
    ).rows[0];
    const files = (names: string[]) =>
      fileKey ? names.map((name) => ({ key: fileKey, name, contentType: 'application/pdf' })) : [];
    // Objects shown one per page (a request, a message) carry ten payloads each, side by side in a
    // text field and one per entry in their lists; a text field escapes each the same way.
    for (let first = 0; first < CORPUS.length; first += PER_OBJECT) {
      const chunk = CORPUS.slice(first, first + PER_OBJECT);
      const joined = chunk.join(' ');
      const named = `${MARK} ${joined}`;
      let number = createRequestNumber('ACM', new Date(), random);
      while ((await client.query('select 1 from requests where request_number = $1', [number])).rowCount)
        number = createRequestNumber('ACM', new Date(), random);
      await copyRow(client, 'requests', `request_number = '${base}'`, {
        request_number: number,
        applicant_name: named,
        applicant: { ...request.applicant, name: named, reference1: joined, email: null },
        recipient_name: named,
        recipient: { ...request.recipient, name: named, email: null },
        reference_number: joined,
        content: {
          ...request.content,
          additionalInstructions: joined,
          additionalInstructionsToHandler: joined,
          additionalQuestions: chunk.map((text) => ({ text })),
          itemTypes: request.content.itemTypes.map((item: { smartFormAnswers: object }) => ({
            ...item,
            smartFormAnswers: { ...item.smartFormAnswers, treatingDoctor: joined },
          })),
        },
        tags: Object.fromEntries(chunk.map((p) => [p.slice(0, 40), p])),
        submitted_at: new Date().toISOString(),
        last_activity_at: new Date().toISOString(),
        version: 1,
      });
      seeded.requests.push(number);
      for (const [k, payload] of chunk.entries()) {
        await copyRow(client, 'correspondence', `kind = 'note'`, {
          request_number: number,
          body: richText(`@[${payload}](handler) ${payload}`, payload),
          subject: payload,
          created_by: 'handler',
        });
        await copyRow(client, 'correspondence', `kind = 'message'`, {
          request_number: number,
          subject: payload,
          body: { type: 'html', content: payload },
          from_address: { displayName: payload, email: `xss-${first + k}@corpus.example` },
          attachments: files([payload]),
          unverified_sender: false,
        });
        await client.query(
          `insert into notifications (user_id, type, target, text, created_by)
           values ('handler', 'requestIssued', $1, $2, 'handler')`,
          [`/requests/${number}`, payload],
        );
      }
      const inbox = await copyRow(client, 'inbox_messages', 'true', {
        subject: joined,
        from_address: { displayName: joined, email: `xss-${first}@corpus.example` },
        from_email: `xss-${first}@corpus.example`,
        body_text: joined,
        body_html: joined,
        received_at: new Date().toISOString(),
        message_id: null,
        flag_reason: joined,
        attachments: files(chunk),
      });
      seeded.inboxIds.push(String(inbox.id));
      const mail = await client.query(
        `insert into mail_outbox ("to", subject, text, html, attempts, last_error, failed_at, attachments)
         values ($1, $2, $3, $4, 5, $2, now(), $5) returning id`,
        [`xss-${first}@corpus.example`, joined, joined, joined, JSON.stringify(files(chunk))],
      );
      seeded.outboxIds.push(String(mail.rows[0].id));
    }
    // Objects listed twenty to a page carry one payload each.
    for (const [i, payload] of CORPUS.entries()) {
      const named = `${MARK} ${payload}`;
      await client.query(
        `insert into recipients (name, phone, street_address, postal_address, notes, web_site_url, scope)
         values ($1, '+61290000000', $2, $2, $2, $2, '/org/acme/')`,
        [named, payload],
      );
      await client.query(
        `insert into payees (name, reference_number, bank_account, currency, foreign_reference_label,
                             foreign_reference_url, scope)
         values ($1, $2, '062000 12345678', 'AUD', $2, $2, '/org/acme/')`,
        [named, payload],
      );
      await client.query(
        `insert into users (id, name, email, scope, address, phone)
         values ($1, $2, $3, '/org/acme/', $4, '+61400000000')`,
        [`xss-${i}`, named, `xss-${i}@corpus.example`, payload],
      );
      await client.query(
        `insert into configurations (id, scope_path, name, "order", is_default, is_disabled, version)
         values ($1, $2, $3, 900, false, false, 1)`,
        [`xssCorpus${i}`, `/org/xss${i}/`, named],
      );
    }
    return seeded;
  });
}

interface Findings {
  executions: string[];
  pagesViewed: number;
}

/** Records every sign of a payload that ran or became markup, on every document of the page. */
async function watch(page: Page, findings: Findings) {
  await page.exposeBinding('__reportXss', (_source, what: string) => {
    findings.executions.push(`${page.url()}: ${what}`);
  });
  await page.addInitScript(() => {
    const report = (what: string) =>
      (window as unknown as { __reportXss(what: string): void }).__reportXss(what);
    Object.assign(window, {
      __xss: (n: number) => report(`__xss(${n}) ran`),
      alert: (m: unknown) => report(`alert(${String(m)})`),
      confirm: (m: unknown) => report(`confirm(${String(m)})`),
      prompt: (m: unknown) => report(`prompt(${String(m)})`),
    });
    document.addEventListener('securitypolicyviolation', (event) => {
      report(`the security policy blocked ${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  page.on('dialog', async (dialog) => {
    findings.executions.push(`${page.url()}: a ${dialog.type()} dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
}

/** Markup of a payload that reached the page: elements and attributes no screen of the app makes. */
async function checkPage(page: Page, findings: Findings) {
  findings.pagesViewed++;
  const made = await page.evaluate(() => {
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll('*'))) {
      for (const attribute of Array.from(element.attributes)) {
        const name = attribute.name.toLowerCase();
        const value = attribute.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
        if (
          name === 'data-xss' ||
          name.startsWith('on') ||
          (['href', 'src', 'action', 'formaction', 'xlink:href', 'data'].includes(name) &&
            (value.startsWith('javascript:') ||
              value.startsWith('data:text/html') ||
              value.includes('__xss')))
        )
          found.push(
            `<${element.tagName.toLowerCase()} ${attribute.name}="${attribute.value.slice(0, 60)}">`,
          );
      }
      if (
        element.tagName === 'IFRAME' &&
        /allow-scripts/.test(element.getAttribute('sandbox') ?? 'allow-scripts')
      )
        found.push('an iframe that may run scripts');
    }
    return found;
  });
  for (const m of made) findings.executions.push(`${page.url()}: the page holds ${m}`);
}

async function view(page: Page, findings: Findings, url: string, ready: string) {
  await page.goto(url);
  await expect(page.getByTestId(ready).first(), url).toBeVisible({ timeout: 30_000 });
  // Handlers and image errors fire after the first paint; give them a moment.
  await page.waitForTimeout(50);
  await checkPage(page, findings);
}

/** Runs a list page's search for the corpus and views every page of its results. */
async function viewPages(page: Page, findings: Findings, fill: () => Promise<void>, submit: string) {
  await fill();
  await page.getByTestId(submit).click();
  for (let n = 0; n < 20; n++) {
    await page.waitForTimeout(150);
    await checkPage(page, findings);
    const next = page.getByTestId('search-next');
    if (!(await next.isVisible()) || !(await next.isEnabled())) break;
    await next.click();
  }
}

const FIELDS = {
  // applicant name, reference, recipient name, instructions (two), question, answer, tag, note
  // text, note link, mention, message subject, sender name
  request: 13,
  correspondence: 3, // message body, attachment name, note subject
  inbox: 5, // subject, sender, text, HTML, flag reason
  outbox: 4, // subject, text, HTML, attachment name
  directory: 9, // recipient name, addresses, notes, web site; payee name, reference, label, url
  users: 2, // name, address
  notifications: 1,
  configuration: 1,
  search: 1, // the search term itself
};

let seeded: Seeded;
const findings: Findings = { executions: [], pagesViewed: 0 };

test.beforeAll(async () => {
  seeded = await seed();
});

test.afterAll(() => {
  const fieldCount = Object.values(FIELDS).reduce((a, b) => a + b, 0);
  const summary =
    `[xss] ${CORPUS.length} payloads × ${fieldCount} fields, ${findings.pagesViewed} pages viewed; ` +
    `${findings.executions.length} executions or injected elements`;
  console.log(summary);
  fs.mkdirSync(path.dirname(SUMMARY), { recursive: true });
  fs.writeFileSync(SUMMARY, `${summary}\n`);
});

/** A page as `user` sees it, watched for the whole test; fails with what ran or was made. */
async function asUser(
  browser: Browser,
  user: { username: string; password?: string },
  walk: (page: Page) => Promise<void>,
) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const before = findings.executions.length;
  await watch(page, findings);
  await signIn(page, user.username, user.password);
  await walk(page);
  await page.close();
  expect(findings.executions.slice(before)).toEqual([]);
}

test('requests: each request page, find results and search terms, the dashboard and the bell', async ({
  browser,
}) => {
  await asUser(browser, { username: 'handler' }, async (page) => {
    for (const number of seeded.requests) await view(page, findings, `/requests/${number}`, 'request-page');
    for (let offset = 0; offset < CORPUS.length; offset += 20)
      await view(
        page,
        findings,
        `/requests/find?subject=${MARK}&search=1&pageOffset=${offset}`,
        'find-requests-result',
      );
    for (let first = 0; first < CORPUS.length; first += PER_OBJECT) {
      const terms = CORPUS.slice(first, first + PER_OBJECT).join(' ');
      await view(
        page,
        findings,
        `/requests/find?q=${encodeURIComponent(terms)}&search=1`,
        'find-requests-page',
      );
    }
    await view(page, findings, '/dashboard', 'dashboard-page');
    // The bell's overlay lists the notifications.
    await page.getByTestId('notification-bell').click();
    await expect(page.getByTestId('notification-item').first()).toBeVisible();
    await checkPage(page, findings);
  });
});

test('administration: recipients, payees, users, outbox, inbox and configuration lists', async ({
  browser,
}) => {
  await asUser(browser, ADMIN, async (page) => {
    const byName = () => page.getByTestId('search-name').fill(MARK);
    await view(page, findings, '/admin/recipients', 'admin-recipients-page');
    await viewPages(page, findings, byName, 'search-submit');
    await view(page, findings, '/admin/payees', 'admin-payees-page');
    await viewPages(page, findings, byName, 'search-submit');
    await view(page, findings, '/admin/users', 'admin-users-page');
    await viewPages(page, findings, byName, 'search-submit');
    await view(page, findings, '/admin/outbox', 'admin-outbox-page');
    await viewPages(
      page,
      findings,
      () => page.getByTestId('search-to').fill('corpus.example'),
      'search-submit',
    );
    await view(page, findings, '/inbox', 'inbox-page');
    await viewPages(
      page,
      findings,
      () => page.getByTestId('inbox-sender').fill('corpus.example'),
      'inbox-search',
    );
    await view(page, findings, '/admin/configuration', 'configuration-list');
  });
});

test('mail: each received and each outgoing message', async ({ browser }) => {
  await asUser(browser, ADMIN, async (page) => {
    for (const id of seeded.inboxIds)
      await view(page, findings, `/inbox/messages/${id}`, 'inbox-message-page');
    for (const id of seeded.outboxIds)
      await view(page, findings, `/admin/outbox/${id}`, 'outbox-message-page');
  });
});
