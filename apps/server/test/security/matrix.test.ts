import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../../src/features/configuration/effective.js';
import { createLocalStorage } from '../../src/files/storage.js';
import type { RouteEntry } from '../../src/http/routeTable.js';
import { receiveMessage } from '../../src/mail/incoming/receive.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from '../helpers.js';
import { addApiKey, apiToken, type TestApiKey } from '../support/apiKeys.js';
import { insertTestRequest } from '../support/requests.js';
import { setRequestSettings, uploadPdf } from '../support/resultsInvoices.js';
import {
  CALLER_ROLES,
  CALLERS,
  type Caller,
  EXCLUDED,
  type Expectation,
  type Fixtures,
  MATRIX,
  NEVER_SHOWN,
  OUTSIDERS,
  SECRETS,
} from './matrix.js';
import { writeSummary } from './summary.js';

// The authorization matrix (issue 13): every route of the route table, called by every caller of
// matrix.ts with the ids of real objects of /org/acme/, answers as the expectation table says —
// allowed past authorization, or refused (401/403/404) without naming any acme object. A route
// missing from the table fails; known defects are skipped and printed with the summary.

let t: TestContext;
let f: Fixtures;
/** An administrator at / who makes the acme objects through the routes; not a caller of the matrix. */
let rootCookie = '';
const cookies = new Map<Caller, string>();
const keys = new Map<Caller, TestApiKey>();

const doc = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

function mail(subject: string, body: string): Buffer {
  return Buffer.from(
    `MIME-Version: 1.0\r\nFrom: Records <records@northside.example>\r\nSubject: ${subject}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n`,
  );
}

async function call(
  caller: Caller | 'root',
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  // Every caller is a JSON client (X-Requested-With): a refusal is an error, not a sign-in redirect.
  const headers: Record<string, string> = { ...XHR };
  const key = caller === 'root' ? undefined : keys.get(caller);
  if (key) headers.authorization = `Bearer ${await apiToken(key)}`;
  else {
    const cookie = caller === 'root' ? rootCookie : cookies.get(caller);
    if (cookie) headers.cookie = cookie;
  }
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: res.statusCode, body: res.body };
}

async function rootCall(method: string, url: string, body?: unknown) {
  const res = await call('root', method, url, body);
  if (res.status >= 300) throw new Error(`fixture ${method} ${url}: ${res.status} ${res.body}`);
  return JSON.parse(res.body || '{}');
}

beforeAll(async () => {
  t = await createTestContext({ selfRegistration: true });
  const { db } = t;
  await createUser(db, { id: 'mx-root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  rootCookie = await signIn(t.app, 'mx-root');

  // The callers.
  for (const [caller, role] of Object.entries(CALLER_ROLES)) {
    const org = caller.endsWith('Globex')
      ? '/org/globex/'
      : caller === 'newcomer'
        ? '/registered/'
        : '/org/acme/';
    const reference =
      caller === 'externalWithRef' ? 'ADV-ACME-1' : caller === 'externalOtherRef' ? 'ADV-OTHER-2' : undefined;
    await createUser(db, {
      id: `mx-${caller.toLowerCase()}`,
      scope: org,
      roles: role ? [{ role, scope: org, externalReference: reference }] : [],
    });
    cookies.set(caller as Caller, await signIn(t.app, `mx-${caller.toLowerCase()}`));
  }

  // Configuration of /org/acme/: request settings (named), a webhook entry, the acme API key.
  await setRequestSettings(t, '/org/acme/', { requestNumberPrefix: 'MTX' });
  const configurationId = 'cfgorgacme';
  await db
    .updateTable('configurations')
    .set({ name: SECRETS.configurationName })
    .where('id', '=', configurationId)
    .execute();
  await db
    .insertInto('configuration_entries')
    .values({
      configuration_id: configurationId,
      id: 'scopeAcme',
      parent_id: 'c',
      type: 'scopeEntry',
      name: 'Acme',
      data: JSON.stringify({ scopePath: '/org/acme/', usages: ['submitRequest'] }),
    })
    .execute();
  // A SCIM client of acme, whose token the configuration editors of acme may make.
  await db
    .insertInto('configuration_entries')
    .values({
      configuration_id: configurationId,
      id: 'mxScim',
      parent_id: 'c',
      type: 'scimClientEntry',
      name: 'Matrix SCIM client',
      data: JSON.stringify({ subjectAttribute: 'externalId', groupRoles: [] }),
    })
    .execute();
  invalidateConfigurationCache(db);
  await db
    .updateTable('configuration_entries')
    .set({ name: SECRETS.configuration })
    .where('configuration_id', '=', configurationId)
    .where('id', '=', 'requestSettings')
    .execute();
  const scopes = [
    'requestRead',
    'requestWrite',
    'requestResultRead',
    'requestResultWrite',
    'requestInvoiceRead',
    'requestInvoiceWrite',
    'fileRead',
    'fileWrite',
    'payeeRead',
    'payeeWrite',
    'userCredentialsVerify',
  ] as never;
  keys.set('apiAcme', await addApiKey(db, { kid: 'mx-acme', scopePath: '/org/acme/', apiScopes: scopes }));
  keys.set(
    'apiGlobex',
    await addApiKey(db, { kid: 'mx-globex', scopePath: '/org/globex/', apiScopes: scopes }),
  );
  keys.set(
    'apiAcmePayeesOnly',
    await addApiKey(db, { kid: 'mx-acme-payees', scopePath: '/org/acme/', apiScopes: ['payeeRead'] }),
  );

  // The acme request, with a quality-assured result, an invoice, a note, a task.
  const requestNumber = await insertTestRequest(db, {
    scope: '/org/acme/',
    requestNumber: SECRETS.requestNumber,
    status: 'open',
    applicant: { name: SECRETS.applicant },
    externalUserReferences: ['ADV-ACME-1'],
    submittedBy: 'mx-submitteracme',
  });
  const n = `/requests/${requestNumber}`;
  const resultFileKey = await uploadPdf(t, rootCookie, SECRETS.result);
  const { resultId } = await rootCall('POST', `${n}/actions/addResult`, {
    file: { key: resultFileKey },
    tags: { documentType: 'Medical records' },
  });
  await rootCall('POST', `${n}/results/${resultId}/actions/qualityAssure`, {});
  const pendingResultFileKey = await uploadPdf(t, rootCookie, SECRETS.pendingResult);
  const pending = await rootCall('POST', `${n}/actions/addResult`, {
    file: { key: pendingResultFileKey },
    tags: { documentType: 'Medical records' },
  });
  const invoiceKey = await uploadPdf(t, rootCookie, SECRETS.invoice);
  const { invoiceId } = await rootCall('POST', `${n}/actions/addInvoice`, {
    file: { key: invoiceKey },
    tags: { invoiceType: 'Records fee' },
  });
  const note = await call('submitterAcme', 'POST', `${n}/actions/addNote`, { body: doc(SECRETS.note) });
  expect(note.status, note.body).toBe(200);
  const noteId = JSON.parse(note.body).messageId as string;
  const { taskId } = await rootCall('POST', `${n}/actions/addTask`, {
    type: 'senderActionRequired',
    notice: SECRETS.task,
  });

  const staffTask = await rootCall('POST', `${n}/actions/addTask`, {
    type: 'followUp',
    notice: SECRETS.task,
  });

  // A draft and an unattached upload of the acme submitter.
  const draft = await db
    .insertInto('request_drafts')
    .values({ user_id: 'mx-submitteracme', data: JSON.stringify({ applicant: { name: SECRETS.draft } }) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const fileKey = await uploadPdf(t, cookies.get('submitterAcme') ?? '', SECRETS.file);

  // An inbox message naming the acme request (which links it to the request).
  await receiveMessage(
    { db, storage: createLocalStorage(t.config.files.dir), live: t.live },
    mail(SECRETS.inbox, `About ${requestNumber}.`),
  );
  const message = await db
    .selectFrom('inbox_messages')
    .select('id')
    .where('subject', '=', SECRETS.inbox)
    .executeTakeFirstOrThrow();

  // A user of acme, and a claim of an external role at acme by a self-registered user.
  await createUser(db, {
    id: 'mx-acmeuser',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await db
    .updateTable('users')
    .set({ name: SECRETS.userName, email: SECRETS.userEmail })
    .where('id', '=', 'mx-acmeuser')
    .execute();
  await createUser(db, {
    id: 'mx-dualuser',
    scope: '/org/acme/',
    roles: [
      { role: 'c:roles:submitter', scope: '/org/acme/' },
      { role: 'c:roles:handler', scope: '/org/globex/' },
    ],
  });
  await createUser(db, { id: 'mx-claimant', scope: '/registered/' });
  const claim = await db
    .insertInto('role_claims')
    .values({
      user_id: 'mx-claimant',
      role: 'c:roles:external',
      scope: '/org/acme/',
      external_reference: 'ADV-CLAIM-3',
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  // Directory entries, and a mail of the acme request.
  await rootCall('POST', '/admin/recipients/edit', {
    name: SECRETS.recipient,
    phone: '02 9000 1111',
    country: 'AU',
    tags: { kind: { id: 'kind', name: 'Kind', values: ['hospital'], isRequired: true, value: 'hospital' } },
  });
  await rootCall('POST', '/admin/payees/edit', { name: SECRETS.payee, currency: 'AUD' });
  // Entries acme made: acme's editors change them, nobody else below the root.
  await db
    .updateTable('recipients')
    .set({ scope: '/org/acme/' })
    .where('name', '=', SECRETS.recipient)
    .execute();
  await db.updateTable('payees').set({ scope: '/org/acme/' }).where('name', '=', SECRETS.payee).execute();
  const recipient = await db
    .selectFrom('recipients')
    .select('id')
    .where('name', '=', SECRETS.recipient)
    .executeTakeFirstOrThrow();
  const payee = await db
    .selectFrom('payees')
    .select('id')
    .where('name', '=', SECRETS.payee)
    .executeTakeFirstOrThrow();
  const outbox = await db
    .insertInto('mail_outbox')
    .values({
      to: 'records@northside.example',
      subject: SECRETS.mail,
      text: `About ${requestNumber}`,
      html: null,
      created_at: new Date(),
      next_attempt_at: new Date(),
      last_error: null,
      message_id: null,
      request_number: requestNumber,
      scope: '/org/acme/',
      // What the message carries opens from the outbox (GET …/attachments/0).
      attachments: JSON.stringify([
        { fileKey: resultFileKey, name: 'records.pdf', contentType: 'application/pdf' },
      ]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  f = {
    requestNumber,
    resultId,
    pendingResultId: pending.resultId,
    pendingResultFileKey,
    invoiceId,
    invoiceFileKey: invoiceKey,
    noteId,
    taskId,
    staffTaskId: staffTask.taskId,
    dualUserId: 'mx-dualuser',
    dualUserVersion: (
      await db.selectFrom('users').select('version').where('id', '=', 'mx-dualuser').executeTakeFirstOrThrow()
    ).version,
    draftId: draft.id,
    fileKey,
    resultFileKey,
    apiFileKey: resultFileKey,
    inboxMessageId: message.id,
    userId: 'mx-acmeuser',
    claimId: claim.id,
    recipientId: recipient.id,
    payeeId: payee.id,
    configurationId,
    configurationEntryId: 'requestSettings',
    webhookEntryId: 'requestSettings',
    scimEntryId: 'mxScim',
    mailId: outbox.id,
  };
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** The acme object each path parameter names, unless the entry gives it. */
function defaultParams(): Record<string, string> {
  return {
    requestNumber: f.requestNumber,
    resultId: f.resultId,
    invoiceId: f.invoiceId,
    taskId: f.taskId,
    draftId: f.draftId,
    key: f.resultFileKey,
    userId: f.userId,
    claimId: f.claimId,
    recipientId: f.recipientId,
    payeeId: f.payeeId,
    mailId: f.mailId,
    c: f.configurationId,
    configuration: f.configurationId,
    id: f.configurationEntryId,
    organization: encodeURIComponent('/org/acme/'),
  };
}

function urlOf(route: RouteEntry, e: Expectation): string {
  const values = { ...defaultParams(), ...(e.params?.(f) ?? {}) };
  const path = route.url
    .replace(/:(\w+)/g, (_m, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`${route.method} ${route.url}: no value for :${name}`);
      return value.startsWith('%') ? value : encodeURIComponent(value);
    })
    .replace('*', () => values['*'] ?? 'x');
  return e.query ? `${path}?${e.query}` : path;
}

const isApi = (url: string) => url.startsWith('/api/v1/');

/** What a refusal of the caller looks like on this route. */
function refusalStatuses(caller: Caller, route: RouteEntry, e: Expectation): number[] {
  if (e.refusedAs) return e.refusedAs;
  const apiCaller = keys.has(caller);
  if (caller === 'anonymous' || apiCaller !== isApi(route.url)) return [401];
  return [403, 404];
}

const leaked = (body: string) =>
  (Object.entries(SECRETS) as [keyof typeof SECRETS, string][]).filter(([, s]) => body.includes(s));

/** The tables of the acme objects: a write refused to every refused caller leaves them as they were. */
const OBJECT_TABLES = [
  'requests',
  'request_results',
  'request_invoices',
  'correspondence',
  'tasks',
  'request_drafts',
  'files',
  'inbox_messages',
  'users',
  'user_roles',
  'role_claims',
  'recipients',
  'payees',
  'configurations',
  'configuration_entries',
  'mail_outbox',
  'task_skills',
] as const;

async function objectsChecksum(): Promise<Map<string, string>> {
  const parts = OBJECT_TABLES.map(
    (
      table,
    ) => sql`select ${table} as name, md5(coalesce(string_agg(md5(x::text), '' order by md5(x::text)), '')) as h
      from ${sql.table(table)} x`,
  );
  const r = await sql<{ name: string; h: string }>`${sql.join(parts, sql` union all `)}`.execute(t.db);
  return new Map(r.rows.map((row) => [row.name, row.h]));
}

/** A status, and the acme objects the answer names. */
function outcome(res: { status: number; body: string }): string {
  const shown = leaked(res.body).map(([k]) => k);
  return shown.length ? `${res.status}, shows ${shown.join(', ')}` : String(res.status);
}

interface Cell {
  route: RouteEntry;
  name: string;
  e: Expectation;
}

describe('authorization matrix', () => {
  it('has an expectation for every route of the route table', () => {
    const routes = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    const missing = routes.filter((r) => !MATRIX[r] && !EXCLUDED[r]);
    const stale = [...Object.keys(MATRIX), ...Object.keys(EXCLUDED)].filter((r) => !routes.includes(r));
    expect(missing, 'routes without an entry in test/security/matrix.ts').toEqual([]);
    expect(stale, 'entries of matrix.ts for routes that no longer exist').toEqual([]);
  });

  it('lets through exactly the allowed callers, and refusals tell nothing of acme', async () => {
    const cells: Cell[] = [];
    for (const route of t.app.routeTable) {
      const name = `${route.method} ${route.url}`;
      const entry = MATRIX[name];
      if (!entry || EXCLUDED[name]) continue;
      for (const e of Array.isArray(entry) ? entry : [entry]) cells.push({ route, name, e });
    }
    // Reads first, then writes, then what changes the objects for good (close, discard, delete).
    cells.sort((a, b) => (a.e.order ?? 0) - (b.e.order ?? 0));

    const failures: string[] = [];
    const known: string[] = [];
    /** Route (and why) → the refused callers an empty body got a 400. */
    const validatesFirst = new Map<string, Caller[]>();
    const covered = new Set<string>();
    const grid: { route: string; caller: Caller; expected: string; status: number }[] = [];
    let checked = 0;
    let allowedCells = 0;
    let refusedCells = 0;

    for (const { route, name, e } of cells) {
      covered.add(name);
      const label = e.variant ? `${name} [${e.variant}]` : name;
      const url = urlOf(route, e);
      const hasBody = !['GET', 'DELETE', 'OPTIONS', 'TRACE'].includes(route.method);
      const body = hasBody ? (e.body?.(f) ?? {}) : undefined;
      const allowed = new Set(e.allow);
      // Refused callers first: an allowed one may change the object (complete the task, close).
      // Known defects after the refusals (which must have changed nothing), before the allowed.
      const rank = (c: Caller) => (allowed.has(c) ? 2 : e.knownDefects?.[c] ? 1 : 0);
      const order = [...CALLERS].sort((a, b) => rank(a) - rank(b));
      const before = hasBody || route.method === 'DELETE' ? await objectsChecksum() : undefined;
      let refusalsChecked = false;
      const checkRefusalsChangedNothing = async () => {
        if (!before || refusalsChecked) return;
        refusalsChecked = true;
        const after = await objectsChecksum();
        const changed = [...after].filter(([table, h]) => before.get(table) !== h).map(([table]) => table);
        if (changed.length) failures.push(`${label}: the refused callers changed ${changed.join(', ')}`);
      };
      for (const caller of order) {
        const defect = e.knownDefects?.[caller];
        if (rank(caller) > 0) await checkRefusalsChangedNothing();
        if (allowed.has(caller)) {
          const res = await call(caller, route.method, url, body);
          grid.push({
            route: label,
            caller,
            expected: defect ? 'knownDefect' : 'allowed',
            status: res.status,
          });
          if (defect) {
            known.push(`${label} as ${caller} (${outcome(res)}): ${defect}`);
            continue;
          }
          checked++;
          allowedCells++;
          const ok = (res.status >= 200 && res.status < 400) || (e.pastAuth ?? []).includes(res.status);
          if (!ok)
            failures.push(`${label} as ${caller}: allowed, answered ${res.status} ${res.body.slice(0, 160)}`);
          const missed = (e.shows ?? []).filter((secret) => !res.body.includes(SECRETS[secret]));
          if (!OUTSIDERS.includes(caller) && missed.length)
            failures.push(
              `${label} as ${caller}: allowed, but the answer does not show ${missed.join(', ')}`,
            );
          const hidden = (NEVER_SHOWN[caller] ?? []).filter((secret) => res.body.includes(SECRETS[secret]));
          if (hidden.length) failures.push(`${label} as ${caller}: is shown ${hidden.join(', ')}`);
          if (OUTSIDERS.includes(caller)) {
            const shown = leaked(res.body).filter(([secret]) => !e.mayShow?.secrets.includes(secret));
            if (shown.length)
              failures.push(
                `${label} as ${caller}: an outsider is shown ${shown.map(([k]) => k).join(', ')}`,
              );
          }
          continue;
        }
        const refusedAs = refusalStatuses(caller, route, e);
        // The empty probes: a route that answers a refused caller's empty body (or empty query) with
        // a 400 validated it before checking the caller; reported, and named in the table.
        const probes: [string, Promise<{ status: number }> | undefined][] = [
          ['body', hasBody && e.body ? call(caller, route.method, url, {}) : undefined],
          ['query', e.query ? call(caller, route.method, url.split('?')[0] ?? url, body) : undefined],
        ];
        for (const [what, probe] of probes) {
          if (!probe || (await probe).status !== 400 || refusedAs.includes(400)) continue;
          const note = `${name}: ${e.validatesFirst ?? `an empty ${what} gets a 400 before the caller is checked`}`;
          validatesFirst.set(note, [...new Set([...(validatesFirst.get(note) ?? []), caller])]);
          if (!e.validatesFirst)
            failures.push(`${label} as ${caller}: an empty ${what} is validated first (400)`);
        }
        const res = await call(caller, route.method, url, body);
        grid.push({ route: label, caller, expected: defect ? 'knownDefect' : 'refused', status: res.status });
        if (defect) {
          known.push(`${label} as ${caller} (${outcome(res)}): ${defect}`);
          continue;
        }
        checked++;
        refusedCells++;
        if (!refusedAs.includes(res.status)) {
          const why =
            res.status === 400
              ? ' (validated before the caller was checked)'
              : res.status < 400
                ? ' (ACCESS DEFECT)'
                : '';
          failures.push(
            `${label} as ${caller}: refused, expected ${refusedAs.join('/')}, answered ${res.status}${why} ${res.body.slice(0, 160)}`,
          );
        }
        const shown = leaked(res.body);
        if (shown.length)
          failures.push(`${label} as ${caller}: the refusal names ${shown.map(([k]) => k).join(', ')}`);
      }
      await checkRefusalsChangedNothing();
    }

    const routes = t.app.routeTable.length;
    writeSummary(
      'matrix',
      `[matrix] ${covered.size + Object.keys(EXCLUDED).length} of ${routes} routes in the table (${covered.size} called, ${Object.keys(EXCLUDED).length} excluded with a reason); ` +
        `${CALLERS.length} callers per route; ${checked} cells checked, ${known.length} known defects, ${failures.length} failures`,
    );
    console.log(
      [
        `[matrix] ${routes} routes in the route table, ${covered.size} covered, ${Object.keys(EXCLUDED).length} excluded; ` +
          `${CALLERS.length} callers per route; ${cells.length} route variants; ` +
          `${checked} cells checked (${allowedCells} allowed, ${refusedCells} refused), ${known.length} known defects skipped, ` +
          `${failures.length} failures`,
        ...(known.length ? ['[matrix] known defects:', ...known.map((k) => `  - ${k}`)] : []),
        ...(validatesFirst.size
          ? [
              '[matrix] validate their input before checking the caller (reported, no data shown):',
              ...[...validatesFirst].map(([v, callers]) => `  - ${v} (400 to ${callers.join(', ')})`),
            ]
          : []),
        ...(failures.length ? ['[matrix] failures:', ...failures.map((x) => `  - ${x}`)] : []),
      ].join('\n'),
    );
    // MATRIX_REPORT=<file> writes every cell (route, caller, expectation, status) for review.
    if (process.env.MATRIX_REPORT) writeFileSync(process.env.MATRIX_REPORT, JSON.stringify(grid, null, 1));
    expect(failures).toEqual([]);
  }, 300_000);
});
