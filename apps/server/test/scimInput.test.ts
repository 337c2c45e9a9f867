import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from './helpers.js';
import { ERROR, GROUP, PATCH, type ScimHarness, startScim, USER, userBody } from './support/scim.js';

// SCIM provisioning (issue 17): filters and paging, a client kept inside its scope, and bad input
// answered with SCIM errors (4xx, nothing changed), including random bodies and filters.

let h: ScimHarness;
let t: TestContext;
let acmeToken: string;
let globexToken: string;
const scim = (method: string, url: string, payload?: unknown, token?: string) =>
  h.scim(method, url, payload, token);

beforeAll(async () => {
  h = await startScim();
  ({ t, acmeToken, globexToken } = h);
});
afterAll(() => h.t.close());

describe('filters and paging', () => {
  beforeAll(async () => {
    for (const n of [1, 2, 3, 4, 5])
      expect((await scim('POST', '/Users', userBody(`page${n}`))).statusCode).toBe(201);
  });
  const list = async (query: string, token = acmeToken) => {
    const res = await scim('GET', `/Users?${query}`, undefined, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;

  it('finds users by userName, externalId and e-mail, alone or with and', async () => {
    expect((await list(q('userName eq "PAGE2"'))).Resources.map((u: { id: string }) => u.id)).toEqual([
      'page2',
    ]);
    expect((await list(q('externalId eq "ext-page3"'))).Resources[0].id).toBe('page3');
    expect((await list(q('emails.value eq "page4@acme.example"'))).Resources[0].id).toBe('page4');
    expect((await list(q('emails[value eq "page4@acme.example"]'))).totalResults).toBe(1);
    expect((await list(q('userName eq "page1" and externalId eq "ext-page1"'))).totalResults).toBe(1);
    expect((await list(q('userName eq "page1" and externalId eq "ext-page2"'))).totalResults).toBe(0);
    expect((await list(q('userName eq "page1" or userName eq "page2"'))).totalResults).toBe(2);
    expect((await list(q('userName eq "nobody"'))).Resources).toEqual([]);
  });

  it('refuses filters it cannot answer with invalidFilter', async () => {
    for (const filter of [
      'userName co "page"',
      'name.familyName eq "x"',
      'userName eq',
      'userName eq 12',
      '(((',
    ]) {
      const res = await scim('GET', `/Users?${q(filter)}`);
      expect(res.statusCode, filter).toBe(400);
      expect(res.json()).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' });
    }
  });

  it('pages with startIndex and count', async () => {
    const all = await list('count=500');
    const page = await list('startIndex=2&count=2');
    expect(page).toMatchObject({ totalResults: all.totalResults, startIndex: 2, itemsPerPage: 2 });
    expect(page.Resources.map((u: { id: string }) => u.id)).toEqual(
      all.Resources.slice(1, 3).map((u: { id: string }) => u.id),
    );
    expect(await list('count=0')).toMatchObject({
      totalResults: all.totalResults,
      itemsPerPage: 0,
      Resources: [],
    });
    expect((await list(`startIndex=${all.totalResults + 5}`)).Resources).toEqual([]);
    for (const bad of ['startIndex=0', 'count=-1', 'count=many']) {
      const res = await scim('GET', `/Users?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().scimType).toBe('invalidValue');
    }
  });
});

describe('scope: a client reaches only users inside its configuration', () => {
  it('answers 404 for a user of another scope and never lists it', async () => {
    await scim('POST', '/Users', userBody('acmeonly'));
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', userBody('acmeonly')],
      ['PATCH', { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }],
      ['DELETE', undefined],
    ] as const) {
      const res = await scim(method, '/Users/acmeonly', body, globexToken);
      expect(res.statusCode, method).toBe(404);
      expect(res.json().schemas).toEqual([ERROR]);
    }
    const listed = (await scim('GET', '/Users?count=500', undefined, globexToken)).json();
    expect(listed.Resources.map((u: { id: string }) => u.id)).not.toContain('acmeonly');
    const filtered = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "acmeonly"')}`,
      undefined,
      globexToken,
    );
    expect(filtered.json().totalResults).toBe(0);
    const row = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', 'acmeonly')
      .executeTakeFirstOrThrow();
    expect(row.disabled).toBe(false);
    // The globex client creates in its own scope, with the userName as the external id.
    const mine = await scim('POST', '/Users', userBody('glx.user'), globexToken);
    expect(mine.statusCode, mine.body).toBe(201);
    const own = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', 'glx.user')
      .executeTakeFirstOrThrow();
    expect(own).toMatchObject({ scope: '/org/globex/', external_user_id: 'glx.user' });
    // Nor can a group of the globex client take in an acme user.
    const group = await scim(
      'POST',
      '/Groups',
      { schemas: [GROUP], displayName: 'Reach', members: [{ value: 'acmeonly' }] },
      globexToken,
    );
    expect(group.statusCode).toBe(400);
    expect(group.json().scimType).toBe('invalidValue');
  });
});

describe('bad input', () => {
  const count = async () =>
    Number(
      (
        await t.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers SCIM errors with 4xx and changes nothing', async () => {
    const before = await count();
    const cases: [string, string, unknown, number, string | undefined][] = [
      ['POST', '/Users', '{"userName": ', 400, 'invalidSyntax'],
      ['POST', '/Users', { schemas: [USER] }, 400, 'invalidValue'],
      [
        'POST',
        '/Users',
        { schemas: [USER], userName: 'x1', emails: [{ value: 'not-mail' }] },
        400,
        'invalidValue',
      ],
      ['POST', '/Users', { schemas: [USER], userName: 'nomail' }, 400, 'invalidValue'],
      ['POST', '/Users', { schemas: ['urn:other'], userName: 'a@b.example' }, 400, 'invalidValue'],
      ['POST', '/Users', [1, 2], 400, 'invalidValue'],
      ['POST', '/Users', { ...userBody('x2'), active: 'perhaps' }, 400, 'invalidValue'],
      ['POST', '/Users', { ...userBody('x3'), userName: 'y'.repeat(300) }, 400, 'invalidValue'],
      ['POST', '/Users', userBody('page1'), 409, 'uniqueness'],
      ['POST', '/Users', { ...userBody('fresh'), externalId: 'ext-page2' }, 409, 'uniqueness'],
      [
        'POST',
        '/Users',
        { ...userBody('fresh'), emails: [{ value: 'page3@acme.example' }] },
        409,
        'uniqueness',
      ],
      ['PATCH', '/Users/page1', { Operations: [] }, 400, 'invalidSyntax'],
      [
        'PATCH',
        '/Users/page1',
        { schemas: [PATCH], Operations: [{ op: 'jump', path: 'active' }] },
        400,
        undefined,
      ],
      [
        'PATCH',
        '/Users/page1',
        { schemas: [PATCH], Operations: [{ op: 'replace', path: 'userName', value: 'page2' }] },
        409,
        'uniqueness',
      ],
      [
        'PATCH',
        '/Users/page1',
        { schemas: [PATCH], Operations: [{ op: 'replace', path: 'emails', value: 'x' }] },
        400,
        undefined,
      ],
      ['PUT', '/Users/page1', { schemas: [USER] }, 400, 'invalidValue'],
      ['GET', '/Users/no-such-user', undefined, 404, undefined],
      ['GET', '/Groups/not-a-uuid', undefined, 404, undefined],
      [
        'POST',
        '/Groups',
        { schemas: [GROUP], displayName: 'Ghosts', members: [{ value: 'nobody' }] },
        400,
        'invalidValue',
      ],
    ];
    for (const [method, url, body, status, scimType] of cases) {
      const res = await scim(method, url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)} → ${res.body}`).toBe(status);
      expect(res.json().schemas).toEqual([ERROR]);
      if (scimType) expect(res.json().scimType, `${method} ${url}`).toBe(scimType);
    }
    expect(await count()).toBe(before);
    const page1 = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', 'page1')
      .executeTakeFirstOrThrow();
    expect(page1).toMatchObject({ scim_user_name: 'page1', disabled: false, email: 'page1@acme.example' });
  });

  it('accepts application/json as well as application/scim+json', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${acmeToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify(userBody('plainjson')),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toContain('application/scim+json');
  });
});

describe('hostile input', () => {
  it('never answers 5xx to random bodies and filters', async () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const userish = fc.record(
      {
        schemas: fc.oneof(fc.constant([USER]), fc.constant([PATCH]), json),
        userName: fc.oneof(fc.string({ maxLength: 300 }), json),
        externalId: fc.oneof(fc.string(), json),
        emails: fc.oneof(fc.array(fc.record({ value: fc.string(), primary: fc.boolean() })), json),
        active: fc.oneof(fc.boolean(), fc.constantFrom('True', 'False', 'maybe'), json),
        Operations: fc.oneof(
          fc.array(
            fc.record({
              op: fc.constantFrom('add', 'Replace', 'remove', 'x'),
              path: fc.oneof(
                fc.constantFrom(
                  'active',
                  'members',
                  'emails[type eq "work"].value',
                  'userName',
                  'name.givenName',
                ),
                fc.string(),
              ),
              value: json,
            }),
            { maxLength: 3 },
          ),
          json,
        ),
      },
      { requiredKeys: [] },
    );
    const target = fc.constantFrom(
      ['POST', '/Users'],
      ['PUT', '/Users/page5'],
      ['PATCH', '/Users/page5'],
      ['POST', '/Groups'],
      ['GET', '/Users?filter='],
      ['GET', '/Groups?filter='],
    );
    await fc.assert(
      fc.asyncProperty(target, userish, fc.string({ maxLength: 200 }), async ([method, url], body, text) => {
        const res = url.endsWith('filter=')
          ? await scim(method, `${url}${encodeURIComponent(text)}`)
          : await scim(method, url, body);
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)} → ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(res.json().schemas).toEqual([ERROR]);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
    );
  });
});
