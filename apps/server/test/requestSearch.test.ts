import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as lexemesMigration from '../src/db/migrations/20261130_1001_request_lexemes.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// GET /requests/find and /requests/search: the filters, the whole-day "to" date, full text with
// highlights, paging and the summary wording, and above all who sees what.

let t: TestContext;
let handler: ReturnType<typeof caller>;
let acme: ReturnType<typeof caller>;
let globex: ReturnType<typeof caller>;
let advisor: ReturnType<typeof caller>;
let nobody: ReturnType<typeof caller>;
// The request numbers, from beforeAll.
const n = {} as Record<'olivia' | 'oscar' | 'gina' | 'content', string>;

// 2026-03-10 23:30 in Sydney (UTC+11) is 12:30 UTC on the 10th.
const lateOnTenth = new Date('2026-03-10T12:30:00Z');

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'acme',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'globex',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  await createUser(t.db, {
    id: 'advisor',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:external', scope: '/org/acme/', externalReference: 'ADV-7' }],
  });
  await createUser(t.db, { id: 'nobody', roles: [] });
  n.olivia = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    prefix: 'ACM',
    applicant: { name: 'Olivia Smithers' },
    recipient: { name: 'Harbour Hospital' },
    submittedAt: lateOnTenth,
    referenceNumber: 'CLAIM-5521',
  });
  n.oscar = await insertTestRequest(t.db, {
    scope: '/org/acme/branch/sydney/',
    prefix: 'ACS',
    applicant: { name: 'Oscar Smith' },
    recipient: { name: 'Northside Medical Centre' },
    submittedAt: new Date('2026-03-12T01:00:00Z'),
    externalUserReferences: ['ADV-7'],
  });
  n.gina = await insertTestRequest(t.db, {
    scope: '/org/globex/',
    prefix: 'GLX',
    applicant: { name: 'Gina Smith' },
    recipient: { name: 'Harbour Hospital' },
    submittedAt: new Date('2026-03-05T01:00:00Z'),
  });
  // What the request asks for: an answer, a submitter-supplied field, a field set, a question and
  // the instructions (issue 20: the full text now covers them).
  n.content = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    prefix: 'ACM',
    applicant: { name: 'Carla Content' },
    content: {
      itemTypes: [
        {
          id: 'medicalRecords',
          name: 'Physiotherapy notes',
          smartFormAnswers: { period: 'Last five years', include: ['consultation', 'radiology'] },
          excludedQuestions: [],
          submitterSuppliedFields: { patientId: 'MRN-778899' },
          fieldSets: { ward: 'Cardiology west' },
          files: [],
        },
      ],
      additionalQuestions: [{ text: 'Was the patient ever admitted overnight?' }],
      additionalInstructions: 'Please courier the originals',
      additionalInstructionsToHandler: 'Urgent for tribunal hearing',
      additionalFiles: [],
    },
  });
  for (let i = 0; i < 25; i++) {
    await insertTestRequest(t.db, {
      scope: '/org/globex/',
      prefix: 'GLX',
      applicant: { name: `Paging Person ${i}` },
      submittedAt: new Date(Date.UTC(2025, 0, 1 + i)),
    });
  }
  handler = caller(t.app, await signIn(t.app, 'handler'));
  acme = caller(t.app, await signIn(t.app, 'acme'));
  globex = caller(t.app, await signIn(t.app, 'globex'));
  advisor = caller(t.app, await signIn(t.app, 'advisor'));
  nobody = caller(t.app, await signIn(t.app, 'nobody'));
});
afterAll(() => t.close());

const numbers = (res: { json(): { hits: { id: string }[] } }) => res.json().hits.map((h) => h.id);

/** The search before migration 20261130_0001: per word, the columns' tsvector or the content's. */
async function formerHits(words: string[]): Promise<string[]> {
  const word = (w: string, i: number) => `'${w}'${i === words.length - 1 ? ':*' : ''}`;
  const rows = await t.db
    .selectFrom('requests')
    .select('request_number')
    .where(({ and }) =>
      and(
        words.map(
          (w, i) => sql<boolean>`(search @@ to_tsquery('simple', ${word(w, i)})
            or content_search @@ to_tsquery('simple', ${word(w, i)}))`,
        ),
      ),
    )
    .orderBy('submitted_at', 'desc')
    .orderBy('request_number', 'desc')
    .execute();
  return rows.map((r) => r.request_number);
}

/** The hits of GET /requests/search for `q` are those of the former query (at most 100 of them). */
async function expectFormerHits(q: string, expected: 'some' | 'none'): Promise<string[]> {
  const res = await handler.get(`/requests/search?pageSize=100&q=${encodeURIComponent(q)}`);
  expect(res.statusCode, q).toBe(200);
  const found = await formerHits(q.split(' '));
  if (expected === 'some') expect(found.length, q).toBeGreaterThan(0);
  else expect(found, q).toEqual([]);
  expect(found.length, q).toBeLessThanOrEqual(100);
  expect(numbers(res), q).toEqual(found);
  expect(res.json().total, q).toBe(found.length);
  return found;
}

describe('find requests', () => {
  it('serves the page view with the scopes the user may search', async () => {
    const res = await acme.get('/requests/find');
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view.$type).toBe('findRequests');
    expect(view.scopes.map((s: { path: string }) => s.path)).toContain('/org/acme/');
    expect(view.scopes.map((s: { path: string }) => s.path)).not.toContain('/org/globex/');
    expect((await nobody.get('/requests/find')).statusCode).toBe(403);
    expect((await nobody.get('/requests/search')).statusCode).toBe(403);
  });

  it('filters by applicant, recipient, number and scope, newest first', async () => {
    expect(numbers(await handler.get('/requests/search?subject=smith'))).toEqual([n.oscar, n.olivia, n.gina]);
    expect(numbers(await handler.get('/requests/search?subject=SMITH&recipient=harbour'))).toEqual([
      n.olivia,
      n.gina,
    ]);
    expect(numbers(await handler.get(`/requests/search?requestNumber=${n.gina}`))).toEqual([n.gina]);
    expect(
      numbers(await handler.get(`/requests/search?requestNumber=${n.gina.slice(0, 5).toLowerCase()}`)),
    ).toContain(n.gina);
    expect(numbers(await handler.get('/requests/search?subject=smith&scope=/org/acme/'))).toEqual([
      n.oscar,
      n.olivia,
    ]);
  });

  it('counts the whole "to" day in the business time zone', async () => {
    const onTenth = await handler.get('/requests/search?submittedAtFrom=2026-03-10&submittedAtTo=2026-03-10');
    expect(numbers(onTenth)).toEqual([n.olivia]);
    const toNinth = await handler.get('/requests/search?subject=smith&submittedAtTo=2026-03-09');
    expect(numbers(toNinth)).toEqual([n.gina]);
    const fromEleventh = await handler.get('/requests/search?subject=smith&submittedAtFrom=2026-03-11');
    expect(numbers(fromEleventh)).toEqual([n.oscar]);
  });

  it('searches the full text and highlights the hits of the page', async () => {
    const res = await handler.get('/requests/search?q=claim-55');
    expect(numbers(res)).toEqual([n.olivia]);
    const res2 = await handler.get('/requests/search?q=olivia%20harb');
    expect(res2.json().hits[0].highlight).toContain('<mark>Olivia</mark>');
    expect(res2.json().hits[0].highlight).toContain('<mark>Harbour</mark>');
    expect(res2.json().summary).toBe('Showing 1 search result(s).');
    // Characters that mean something to to_tsquery are plain text here.
    expect(
      (await handler.get(`/requests/search?q=${encodeURIComponent("it's a | (test):* !")}`)).statusCode,
    ).toBe(200);
  });

  it('searches what the request asks for: answers, fields, field sets, questions, instructions', async () => {
    for (const words of [
      'physiotherapy notes',
      'five years',
      'radiology',
      'mrn-778899',
      'cardiology',
      'admitted overnight',
      'courier originals',
      'tribunal',
    ]) {
      const res = await handler.get(`/requests/search?q=${encodeURIComponent(words)}`);
      expect(numbers(res), words).toEqual([n.content]);
    }
    const hit = (await handler.get('/requests/search?q=tribunal')).json().hits[0];
    expect(hit.highlight).toContain('<mark>tribunal</mark>');
    expect(hit.highlight).toContain('Carla Content');
    // Who may see the request finds it by its content; another organisation does not.
    expect(numbers(await acme.get('/requests/search?q=cardiology'))).toEqual([n.content]);
    expect(numbers(await globex.get('/requests/search?q=cardiology'))).toEqual([]);
    // Words of the request columns and of the content together.
    expect(numbers(await handler.get('/requests/search?q=carla%20radiology'))).toEqual([n.content]);
  });

  it('matches the columns and the content through one GIN index, and by month through another', async () => {
    await sql`set enable_seqscan = off`.execute(t.db);
    const query = "'carla' & 'tribunal':*";
    const plan = await sql<{ 'QUERY PLAN': string }>`explain select request_number from requests
      where (search || coalesce(content_search, ''::tsvector)) @@ to_tsquery('simple', ${query})`.execute(
      t.db,
    );
    // A window of months asks the month index for each word with its month (migration 20261201_0001).
    const windowPlan = await sql<{ 'QUERY PLAN': string }>`explain select request_number from requests
      where request_month_words(search || coalesce(content_search, ''::tsvector), submitted_at)
        @@ '(''24314~carla'' & ''24314~tribunal'':*) | (''24313~carla'' & ''24313~tribunal'':*)'::tsquery`.execute(
      t.db,
    );
    await sql`reset enable_seqscan`.execute(t.db);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('requests_fulltext_idx');
    expect(windowPlan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('requests_fulltext_month_idx');
  });

  it('finds what the former query found: each word in the columns or in the content', async () => {
    for (const q of [
      'olivia harb',
      'carla radiology',
      'claim-55',
      'o',
      'harbour olivia',
      'mrn-778899 carla',
      'carla physio',
    ]) {
      await expectFormerHits(q, 'some');
    }
  });

  it('spells the last word out as its lexemes and still finds what the former query found', async () => {
    // Prefixes of one, several and over 50 lexemes (request_lexemes, migration 20261130_1001).
    for (const name of [
      'Vantoria Alpha',
      'Vantorian Beta',
      'Vantorius Gamma',
      'Wex 2e5xylo',
      'Zqtoreal Person',
    ])
      await insertTestRequest(t.db, { scope: '/org/globex/', prefix: 'GLX', applicant: { name } });
    for (let i = 0; i < 55; i++)
      await insertTestRequest(t.db, {
        scope: '/org/globex/',
        prefix: 'GLX',
        applicant: { name: `Wex Member${i}` },
      });
    // No request has it, yet it starts like one: the expansion must quote it as tsquery input.
    await sql`insert into request_lexemes values (${"zqto'x\\y"})`.execute(t.db);
    for (const q of [
      'olivia HARB',
      'vanto',
      'alpha vanto',
      'VANTORIA',
      'vantorian',
      'member1',
      'member5',
      'memb',
      'wex memb',
      'zqto',
      'zqtoreal',
      // Not plain, so still a prefix in to_tsquery: a hyphen, '@', a dot, scientific notation.
      'wex 2e5x',
      'olivia records@',
      'carla mrn-7788',
    ]) {
      await expectFormerHits(q, 'some');
    }
    for (const q of ['olivia zzqx', 'zzqx', 'gina vanto', 'olivia zz-qx', 'vantoria memb']) {
      await expectFormerHits(q, 'none');
    }
    const over50 = (await handler.get('/requests/search?pageSize=100&q=memb')).json();
    expect(over50.total).toBe(55);
  });

  it('finds a request by the words it was given by an update', async () => {
    const number = await insertTestRequest(t.db, {
      scope: '/org/globex/',
      prefix: 'GLX',
      applicant: { name: 'Quenby Original' },
    });
    await t.db
      .updateTable('requests')
      .set({ applicant_name: 'Quenby Renamedword' })
      .where('request_number', '=', number)
      .execute();
    for (const q of ['renamedw', 'quenby renamedword']) {
      expect(await expectFormerHits(q, 'some'), q).toEqual([number]);
    }
    const one = await t.db
      .selectFrom('requests')
      .select('content')
      .where('request_number', '=', number)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('requests')
      .set({ content: JSON.stringify({ ...one.content, additionalInstructions: 'Zebrafinch feathers' }) })
      .where('request_number', '=', number)
      .execute();
    for (const q of ['zebraf', 'quenby zebrafinch feath']) {
      expect(await expectFormerHits(q, 'some'), q).toEqual([number]);
    }
    // The old word's lexeme stays behind: it widens an expansion and matches nothing.
    await expectFormerHits('quenby orig', 'none');
  });

  it('keeps every lexeme of every request in request_lexemes', async () => {
    // Several rows in one statement, and an update of some of them.
    await sql`insert into requests (request_number, scope, applicant, applicant_name, recipient, recipient_name,
        content, submitted_at)
      select 'LEX' || lpad(g::text, 6, '0') || 'AAA00', '/org/globex/', '{}', 'Lexbulk' || g, '{}', 'Clinic',
        '{}', timestamptz '2023-01-01' + make_interval(hours => g)
      from generate_series(1, 30) g`.execute(t.db);
    await sql`update requests set recipient_name = 'Lexupdated' || substr(request_number, 4, 6)::int
      where request_number like 'LEX%' and request_number < 'LEX000010'`.execute(t.db);
    await sql`update requests set last_activity_at = now() where request_number like 'LEX%'`.execute(t.db);
    const missing = await sql<{ lexeme: string }>`
      select distinct unnest(tsvector_to_array(search || coalesce(content_search, ''::tsvector))) as lexeme
      from requests
      except select lexeme from request_lexemes`.execute(t.db);
    expect(missing.rows).toEqual([]);
    const kept = await sql<{ n: string }>`select count(*) as n from request_lexemes
      where lexeme like 'lexupdated%' or lexeme like 'lexbulk%'`.execute(t.db);
    expect(Number(kept.rows[0]?.n)).toBe(39);
    await expectFormerHits('lexupdated', 'some');
  });

  it('fills request_lexemes from the requests already there when migrated', async () => {
    const db = t.db as unknown as Kysely<unknown>;
    await lexemesMigration.down(db);
    await insertTestRequest(t.db, {
      scope: '/org/globex/',
      prefix: 'GLX',
      applicant: { name: 'Premigration Person' },
    });
    await lexemesMigration.up(db);
    const missing = await sql<{ lexeme: string }>`
      select distinct unnest(tsvector_to_array(search || coalesce(content_search, ''::tsvector))) as lexeme
      from requests
      except select lexeme from request_lexemes`.execute(t.db);
    expect(missing.rows).toEqual([]);
    await expectFormerHits('premig', 'some');
  });

  it('keeps the stored content words equal to the content, also after the content changes', async () => {
    const differ = () =>
      sql<{ n: string }>`select count(*) as n from requests
        where content_search is distinct from request_content_search(content)`.execute(t.db);
    expect(Number((await differ()).rows[0]?.n)).toBe(0);
    const one = await t.db
      .selectFrom('requests')
      .select(['request_number', 'content'])
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('requests')
      .set({ content: JSON.stringify({ ...one.content, additionalInstructions: 'Quokka' }) })
      .where('request_number', '=', one.request_number)
      .execute();
    expect(Number((await differ()).rows[0]?.n)).toBe(0);
    const found = await sql<{ request_number: string }>`select request_number from requests
      where content_search @@ to_tsquery('simple', 'quokka')`.execute(t.db);
    expect(found.rows.map((r) => r.request_number)).toEqual([one.request_number]);
  });

  it('pages with the summary wording and says when nothing matches', async () => {
    const first = (await handler.get('/requests/search?subject=paging&pageSize=10')).json();
    expect(first.total).toBe(25);
    expect(first.hits).toHaveLength(10);
    expect(first.summary).toBe('Showing search result 1 to 10 out of 25.');
    const last = (await handler.get('/requests/search?subject=paging&pageSize=10&pageOffset=20')).json();
    expect(last.hits).toHaveLength(5);
    expect(last.summary).toBe('Showing search result 21 to 25 out of 25.');
    expect(last.hits[4].item.applicantName).toBe('Paging Person 0');
    const none = (await handler.get('/requests/search?subject=zzzz')).json();
    expect(none).toMatchObject({ total: 0, hits: [], summary: 'No matching search result.' });
  });

  it('stops counting at the cap and still pages newest first', async () => {
    // 201 rows at once; their numbers need not carry check digits for this.
    await sql`insert into requests (request_number, scope, applicant, applicant_name, recipient, recipient_name,
        content, submitted_at)
      select 'CAP' || lpad(g::text, 6, '0') || 'AAA00', '/org/globex/', '{}', 'Capped Crowd', '{}', 'Clinic', '{}',
        timestamptz '2024-01-01' + make_interval(hours => g)
      from generate_series(1, 201) g`.execute(t.db);
    const first = (await handler.get('/requests/search?subject=capped&pageSize=5')).json();
    expect(first).toMatchObject({ total: 200, totalIsCapped: true });
    expect(first.summary).toBe('Showing search result 1 to 5 out of more than 200.');
    expect(numbers({ json: () => first })).toEqual([
      'CAP000201AAA00',
      'CAP000200AAA00',
      'CAP000199AAA00',
      'CAP000198AAA00',
      'CAP000197AAA00',
    ]);
    const later = (await handler.get('/requests/search?subject=capped&pageSize=5&pageOffset=10')).json();
    expect(later.hits[0].id).toBe('CAP000191AAA00');
    await sql`delete from requests where request_number like 'CAP%'`.execute(t.db);
  });

  it("never shows another organisation's requests", async () => {
    const asGlobex = numbers(await globex.get('/requests/search?subject=smith'));
    expect(asGlobex).toEqual([n.gina]);
    expect(numbers(await globex.get(`/requests/search?requestNumber=${n.olivia}`))).toEqual([]);
    expect(numbers(await globex.get('/requests/search?scope=/org/acme/'))).toEqual([]);
    expect(numbers(await acme.get('/requests/search?subject=smith'))).toEqual([n.oscar, n.olivia]);
    expect(numbers(await acme.get('/requests/search?q=gina'))).toEqual([]);
  });

  it('shows an external user only the requests carrying its reference', async () => {
    expect(numbers(await advisor.get('/requests/search'))).toEqual([n.oscar]);
    expect(numbers(await advisor.get('/requests/search?q=olivia'))).toEqual([]);
  });

  it('answers 400 with fields for bad input', async () => {
    const bad = async (query: string) => {
      const res = await handler.get(`/requests/search?${query}`);
      expect(res.statusCode, query).toBe(400);
      return res.json().fields as Record<string, string>;
    };
    expect(Object.keys(await bad('submittedAtFrom=10/03/2026'))).toEqual(['submittedAtFrom']);
    expect(Object.keys(await bad('submittedAtTo=2026-02-30'))).toEqual(['submittedAtTo']);
    expect(Object.keys(await bad('submittedAtFrom=2026-03-10&submittedAtTo=2026-03-09'))).toEqual([
      'submittedAtTo',
    ]);
    expect(Object.keys(await bad('pageSize=1000'))).toEqual(['pageSize']);
    expect(Object.keys(await bad('requestNumber=ACM-12'))).toEqual(['requestNumber']);
    expect(Object.keys(await bad(`requestNumber=${n.olivia.slice(0, 12)}00`))).toEqual(['requestNumber']);
    expect(Object.keys(await bad('scope=acme'))).toEqual(['scope']);
  });
});
