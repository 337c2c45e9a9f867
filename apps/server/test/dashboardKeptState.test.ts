import { isWithinScope, permissionsOfRole, type RoleGrant, SENDER_TASK_TYPES } from '@dossier/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canViewRequest, isRequestStaff } from '../src/features/requests/policy.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// The correspondence, active tasks and results tiles filter by the copy each row keeps of its
// request's status, scope, external references and owners (migration 8001). Here each tile's
// counts and rows, as the API answers them, are compared with a straightforward reading of the
// rows joined to their requests, filtered by the access rules of requests/policy.ts in code, for
// an actor who sees everything, staff and a submitter who each see one scope, and an advisor who
// sees requests by external reference; after closing, re-opening, moving and re-owning requests,
// moving a message to another request and adding rows in bulk. And the kept copies themselves
// with their requests.

let t: TestContext;
const cookies: Record<string, string> = {};
const numbers: string[] = [];

const ACME = '/org/acme/';
const HOOLI = '/org/hooli/';
const GLOBEX = '/org/globex/';

const ACTORS: Record<string, RoleGrant[]> = {
  kall: [{ role: 'c:roles:handler', scope: '/' }],
  khooli: [{ role: 'c:roles:submitter', scope: HOOLI }],
  kacme: [{ role: 'c:roles:manager', scope: ACME }],
  kadvisor: [{ role: 'c:roles:external', scope: ACME, externalReference: 'ADV-1' }],
};

function rolesOf(id: string): RoleGrant[] {
  const roles = ACTORS[id];
  if (!roles) throw new Error(`No test actor ${id}.`);
  return roles;
}

/** What the access rules read of an actor: its roles (the rest is filled for the type). */
const actorOf = (id: string) => ({
  id,
  name: id,
  email: `${id}@test.example`,
  locale: 'en-AU',
  countryCode: '+61',
  scope: '/',
  roles: rolesOf(id),
  permissions: [],
  sessionId: 'none',
});

interface RequestRow {
  request_number: string;
  scope: string;
  status: string;
  external_user_references: string[];
  submitted_by: string | null;
  submitted_on_behalf_of: string | null;
}

interface Expected {
  total: number;
  counts: Record<string, number>;
  ids: string[];
}

async function requestsByNumber(): Promise<Map<string, RequestRow>> {
  const rows = await sql<RequestRow>`select request_number, scope, status, external_user_references,
    submitted_by, submitted_on_behalf_of from requests`.execute(t.db);
  return new Map(rows.rows.map((r) => [r.request_number, r]));
}

/** The counts table counts every key; the total and the list keep to the chosen key, if any. */
function expected<T extends { id: string }>(rows: T[], keyOf: (row: T) => string, key?: string): Expected {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[keyOf(row)] = (counts[keyOf(row)] ?? 0) + 1;
  const listed = key === undefined ? rows : rows.filter((row) => keyOf(row) === key);
  return { total: listed.length, counts, ids: listed.map((r) => r.id) };
}

interface Filter {
  owner?: string;
  requestStatus?: string;
  key?: string;
}

const ownedBy = (r: RequestRow, f: Filter) =>
  (!f.owner || r.submitted_by === f.owner || r.submitted_on_behalf_of === f.owner) &&
  (!f.requestStatus || r.status === f.requestStatus);

/** The correspondence tile: messages of requests not closed that the actor sees, newest first. */
async function expectedCorrespondence(user: string, f: Filter): Promise<Expected> {
  const requests = await requestsByNumber();
  const actor = actorOf(user);
  const rows = await sql<{ id: string; request_number: string; kind: string; unverified_sender: boolean }>`
    select id::text, request_number, kind, unverified_sender from correspondence
    order by created_at desc, id`.execute(t.db);
  return expected(
    rows.rows.filter((c) => {
      const r = requests.get(c.request_number) as RequestRow;
      return (
        r.status !== 'closed' &&
        canViewRequest(actor, r) &&
        (!c.unverified_sender || isRequestStaff(actor, r)) &&
        ownedBy(r, f)
      );
    }),
    (c) => c.kind,
    f.key,
  );
}

/** The active tasks tile under its default type filter (the sender's tasks are not staff's). */
async function expectedTasks(user: string, f: Filter): Promise<Expected> {
  const requests = await requestsByNumber();
  const actor = actorOf(user);
  const inboxScopes = rolesOf(user)
    .filter((g) => permissionsOfRole(g.role).includes('inbox'))
    .map((g) => g.scope);
  const rows = await sql<{ id: string; request_number: string | null; type: string; scope: string }>`
    select id::text, request_number, type, scope from tasks where completed_at is null order by due_at, id`.execute(
    t.db,
  );
  return expected(
    rows.rows.filter((task) => {
      const r = task.request_number ? requests.get(task.request_number) : undefined;
      if (!r)
        return (
          task.request_number === null &&
          !f.owner &&
          !f.requestStatus &&
          inboxScopes.some((scope) => isWithinScope(task.scope, scope))
        );
      const staff = isRequestStaff(actor, r);
      return (
        canViewRequest(actor, r) &&
        (staff || (SENDER_TASK_TYPES as readonly string[]).includes(task.type)) &&
        (task.type !== 'senderActionRequired' || !staff) &&
        ownedBy(r, f)
      );
    }),
    (task) => task.type,
    f.key,
  );
}

/** The results tile: results neither discarded nor downloaded, awaiting QA for staff only. */
async function expectedResults(user: string, f: Filter): Promise<Expected> {
  const requests = await requestsByNumber();
  const actor = actorOf(user);
  const rows = await sql<{ id: string; request_number: string; state: string }>`
    select id::text, request_number, case when quality_assured_at is not null then 'qualityAssured'
      when quality_assurance_skipped then 'qaSkipped' else 'awaitingQa' end as state
    from request_results where discarded_at is null and downloaded_at is null
    order by created_at desc, id`.execute(t.db);
  return expected(
    rows.rows.filter((x) => {
      const r = requests.get(x.request_number) as RequestRow;
      return (
        canViewRequest(actor, r) && (x.state !== 'awaitingQa' || isRequestStaff(actor, r)) && ownedBy(r, f)
      );
    }),
    (x) => x.state,
    f.key,
  );
}

const ID_FIELD = { correspondence: 'messageId', activeTasks: 'taskId', results: 'resultId' } as const;

/** The tile as the API answers it, every page of it. */
async function answered(user: string, tile: keyof typeof ID_FIELD, f: Filter): Promise<Expected> {
  const query = new URLSearchParams({ pageSize: '50' });
  if (f.owner) query.set('owner', f.owner);
  if (f.requestStatus) query.set('filter.requestStatus', f.requestStatus);
  if (f.key) query.set('filter.key', f.key);
  const ids: string[] = [];
  let first: { total: number; aggregations: { key: string; count: number }[] } | undefined;
  for (let offset = 0; ; offset += 50) {
    query.set('pageOffset', String(offset));
    const res = await t.app.inject({
      method: 'GET',
      url: `/dashboard/${tile}?${query}`,
      headers: { ...XHR, cookie: cookies[user] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    first ??= answer;
    ids.push(...answer.items.map((i: Record<string, string>) => i[ID_FIELD[tile]]));
    if (answer.items.length < 50) break;
  }
  const counts = Object.fromEntries(
    (first?.aggregations ?? []).filter((a) => a.count > 0).map((a) => [a.key, a.count]),
  );
  return { total: first?.total ?? 0, counts, ids };
}

const CASES: [string, Filter][] = [
  ['kall', {}],
  ['kall', { owner: 'khooli' }],
  ['kall', { requestStatus: 'open' }],
  ['kall', { key: 'awaitingQa' }],
  ['kall', { key: 'note' }],
  ['khooli', {}],
  ['khooli', { owner: 'mine' }],
  ['kacme', {}],
  ['kadvisor', {}],
];

async function compareTiles(): Promise<void> {
  for (const [user, filter] of CASES) {
    const f = filter.owner === 'mine' ? { ...filter, owner: user } : filter;
    const label = `${user} ${JSON.stringify(filter)}`;
    expect(await answered(user, 'correspondence', filter), `correspondence, ${label}`).toEqual(
      await expectedCorrespondence(user, f),
    );
    expect(await answered(user, 'activeTasks', filter), `activeTasks, ${label}`).toEqual(
      await expectedTasks(user, f),
    );
    expect(await answered(user, 'results', filter), `results, ${label}`).toEqual(
      await expectedResults(user, f),
    );
  }
}

/** Rows whose kept copy differs from their request (none with a request that does not exist). */
async function staleCopies(): Promise<string[]> {
  const stale: string[] = [];
  for (const table of ['tasks', 'correspondence', 'request_results']) {
    const rows = await sql<{ id: string }>`select x.id::text from ${sql.table(table)} x
      left join requests r on r.request_number = x.request_number
      where (x.request_status, x.request_scope, x.request_external_user_references,
          x.request_submitted_by, x.request_submitted_on_behalf_of)
        is distinct from (r.status, r.scope, r.external_user_references, r.submitted_by, r.submitted_on_behalf_of)`.execute(
      t.db,
    );
    stale.push(...rows.rows.map((r) => `${table} ${r.id}`));
  }
  return stale;
}

const DAY = 86_400_000;
let clock = Date.parse('2026-11-01T00:00:00Z');
/** A minute later than the last call: every row gets its own time, so each tile's order is one. */
function tick(): Date {
  clock += 60_000;
  return new Date(clock);
}

/** Tasks, messages and results of one request, of every kind the tiles tell apart. */
async function addRows(requestNumber: string, scope: string, i: number): Promise<void> {
  const types = ['followUp', 'senderActionRequired', 'issueRequest', 'qualityAssureResult'] as const;
  for (let k = 0; k < 3; k++) {
    await t.db
      .insertInto('tasks')
      .values({
        type: types[(i + k) % types.length]!, // modulo the length: always one
        subject: 'Task',
        request_number: requestNumber,
        scope,
        due_at: new Date(clock + (i * 3 + k) * DAY),
        completed_at: (i + k) % 5 === 0 ? tick() : null,
      })
      .execute();
  }
  const kinds = ['note', 'message', 'issuedRequest'] as const;
  for (let k = 0; k < 2; k++) {
    await t.db
      .insertInto('correspondence')
      .values({
        request_number: requestNumber,
        kind: kinds[(i + k) % kinds.length]!, // modulo the length: always one
        body: JSON.stringify({ type: 'text', content: 'text' }),
        unverified_sender: (i + k) % 4 === 1,
        created_at: tick(),
      })
      .execute();
  }
  await t.db
    .insertInto('request_results')
    .values({
      request_number: requestNumber,
      file_key: `k-${requestNumber}-${i}`,
      created_at: tick(),
      quality_assured_at: i % 3 === 1 ? tick() : null,
      quality_assurance_skipped: i % 3 === 2,
      discarded_at: i % 7 === 6 ? tick() : null,
      downloaded_at: i % 7 === 5 ? tick() : null,
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestContext();
  for (const [id, roles] of Object.entries(ACTORS)) await createUser(t.db, { id, roles });
  for (const id of Object.keys(ACTORS)) cookies[id] = await signIn(t.app, id);
  const scopes = [ACME, HOOLI, GLOBEX];
  const statuses = ['submitted', 'open', 'closed'] as const;
  for (let i = 0; i < 15; i++) {
    const scope = scopes[i % 3]!; // the three scopes in turn
    const n = await insertTestRequest(t.db, {
      scope,
      prefix: `K${String.fromCharCode(65 + i)}`,
      status: statuses[Math.floor(i / 3) % 3]!, // each status for three in a row, in turn
      submittedBy: scope === HOOLI ? 'khooli' : null,
      submittedOnBehalfOf: i === 5 ? 'khooli' : null,
      externalUserReferences: i % 4 === 0 ? ['ADV-1'] : [],
    });
    numbers.push(n);
    await addRows(n, scope, i);
  }
  // An inbox message's task: no request, shown to whoever works the inbox of its scope.
  await t.db
    .insertInto('tasks')
    .values({
      type: 'classifyIncomingMessage',
      subject: 'Mail',
      request_number: null,
      scope: '/',
      due_at: tick(),
    })
    .execute();
});

afterAll(async () => {
  await t?.close();
});

describe('the tiles read from the kept request state', () => {
  it('agree with the rows joined to their requests, for every actor and filter', async () => {
    expect(await staleCopies()).toEqual([]);
    await compareTiles();
  });

  it('follow requests that close, re-open and move scope, owner or external references', async () => {
    await sql`update requests set status = 'closed', closed_at = now() where request_number in (${sql.join(numbers.slice(0, 4))})`.execute(
      t.db,
    );
    await sql`update requests set status = 'open', closed_at = null where request_number = ${numbers[7]}`.execute(
      t.db,
    );
    // Moved to Hooli (and to its submitter), and one of Hooli's moved to Acme with the advisor's reference.
    await sql`update requests set scope = ${HOOLI}, submitted_by = 'khooli' where request_number = ${numbers[4]}`.execute(
      t.db,
    );
    await sql`update requests set scope = ${ACME}, external_user_references = array['ADV-1'], submitted_by = null
      where request_number = ${numbers[1]}`.execute(t.db);
    // A change no tile reads writes nothing to the rows.
    await sql`update requests set applicant_name = 'Renamed'`.execute(t.db);
    expect(await staleCopies()).toEqual([]);
    await compareTiles();
  });

  it('follow a message moved to another request, a re-opened task and rows added in bulk', async () => {
    await sql`update correspondence set request_number = ${numbers[10]}
      where id = (select id from correspondence where request_number = ${numbers[2]} order by created_at limit 1)`.execute(
      t.db,
    );
    await sql`update tasks set completed_at = null where completed_at is not null`.execute(t.db);
    // One statement adding rows to several requests, as bench:generate does.
    await sql`insert into correspondence (request_number, kind, body, created_at)
      select request_number, 'message', '{"type":"text","content":"bulk"}', now() - (row_number() over ()) * interval '1 minute'
      from requests`.execute(t.db);
    await sql`insert into tasks (type, subject, request_number, scope, due_at)
      select 'followUp', 'Bulk', request_number, scope, now() + interval '40 days' from requests`.execute(
      t.db,
    );
    await sql`update requests set status = 'open', closed_at = null where request_number = ${numbers[0]}`.execute(
      t.db,
    );
    expect(await staleCopies()).toEqual([]);
    await compareTiles();
  });

  it('leaves a task of a request that is gone as a task of no request', async () => {
    const gone = await insertTestRequest(t.db, { scope: HOOLI, prefix: 'KZ', status: 'open' });
    await t.db
      .insertInto('tasks')
      .values({ type: 'followUp', subject: 'Orphan', request_number: gone, scope: HOOLI, due_at: tick() })
      .execute();
    await sql`delete from tasks where request_number = ${gone} and subject <> 'Orphan'`.execute(t.db);
    await sql`delete from requests where request_number = ${gone}`.execute(t.db);
    expect(await staleCopies()).toEqual([]);
    await compareTiles();
  });
});
