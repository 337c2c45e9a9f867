import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { getEffectiveTemplate } from '../src/features/configuration/effective.js';
import { createTestContext, type TestContext } from './helpers.js';
import { configurationCalls, createConfigurationPeople, entryBody } from './support/configuration.js';

let t: TestContext;
let admin: string;
let submitter: string;
let globex: string;

beforeAll(async () => {
  t = await createTestContext();
  ({ admin, submitter, globex } = await createConfigurationPeople(t, { demo: true }));
});
afterAll(() => t.close());

const { get, post } = configurationCalls(
  () => t,
  () => admin,
);
const entry = entryBody;

describe('adding children', () => {
  it('checks name, id and type and answers the full id', async () => {
    expect(
      (await get('/admin/configuration/edit/root/c/new?childId=partner&type=apiKeyEntry')).json().fields,
    ).toHaveProperty('name');
    expect(
      (await get('/admin/configuration/edit/root/c/new?childId=Bad&name=x&type=apiKeyEntry')).json().fields,
    ).toHaveProperty('childId');
    expect((await get('/admin/configuration/edit/root/c/new?childId=x&name=x')).json().fields).toHaveProperty(
      'type',
    );
    expect(
      (
        await get(
          '/admin/configuration/edit/root/c/new?childId=requestSettings&name=x&type=requestSettingsEntry',
        )
      ).json().fields,
    ).toHaveProperty('childId');
    const ok = await get(
      '/admin/configuration/edit/root/c/new?childId=yesNo&name=Yes%20or%20no&type=smartFormOptionEntry',
    );
    expect(ok.json()).toEqual({ id: 'yesNo', name: 'Yes or no', type: 'smartFormOptionEntry' });
    expect(
      (
        await post(
          '/admin/configuration/edit/root/yesNo',
          entry('Yes or no', {}, { type: 'smartFormOptionEntry' }),
        )
      ).statusCode,
    ).toBe(200);
    const nested = await get('/admin/configuration/edit/root/yesNo/new?childId=yes&name=Yes');
    expect(nested.json()).toEqual({ id: 'yesNo:yes', name: 'Yes', type: 'smartFormOptionEntry' });
    const view = await get('/admin/configuration/edit/root/yesNo:yes?name=Yes&type=smartFormOptionEntry');
    expect(view.json()).toMatchObject({
      isNew: true,
      entry: { id: 'yesNo:yes', version: null },
      path: [{ id: 'c' }, { id: 'yesNo' }],
    });
    expect(
      (await post('/admin/configuration/edit/root/yesNo:yes', entry('Yes', { foreignId: 'Y' }))).statusCode,
    ).toBe(200);
    expect((await get('/admin/configuration/edit/root/yesNo')).json().children).toEqual([
      expect.objectContaining({ id: 'yesNo:yes', name: 'Yes', isInherited: false }),
    ]);
  });
});

describe('children only below entries of a type that has them', () => {
  it('offers no child type for a leaf entry and refuses a child below it', async () => {
    expect(
      (
        await post(
          '/admin/configuration/edit/root/leafHolidays',
          entry('Leaf', {}, { type: 'publicHolidaysEntry' }),
        )
      ).statusCode,
    ).toBe(200);
    expect((await get('/admin/configuration/edit/root/leafHolidays')).json().childTypes).toEqual([]);
    const refused = await get('/admin/configuration/edit/root/leafHolidays/new?childId=x&name=X');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ type: 'Entries of this type have no children.' });
    // An option list (added above) still takes options.
    expect((await get('/admin/configuration/edit/root/yesNo')).json().childTypes).toEqual([
      'smartFormOptionEntry',
    ]);
  });
});

describe('bad input is refused with field errors and nothing is saved', () => {
  it.each([
    ['apiWebhookEntry', { url: 'http://hooks.example/x' }, 'data.url'],
    ['apiWebhookEntry', { url: 'https://10.0.0.5/x' }, 'data.url'],
    ['apiWebhookEntry', { url: 'https://169.254.169.254/latest/meta-data' }, 'data.url'],
    ['apiWebhookEntry', { url: 'https://localhost/x' }, 'data.url'],
    ['apiWebhookEntry', { url: 'https://user:secret@hooks.example/x' }, 'data.url'],
    ['apiKeyEntry', { publicKey: { modulus: 'AAAA', exponent: 'AQAB' }, apiScopes: [] }, 'data.publicKey'],
    ['apiKeyEntry', { publicKey: null, apiScopes: [] }, 'data.publicKey'],
    ['templateEntry', { usage: 'requestClosed', subject: 'Closed ${request.nope}' }, 'data.subject'],
    ['requestSettingsEntry', { requestNumberPrefix: 'TOOLONG' }, 'data.requestNumberPrefix'],
    ['scopeEntry', { scopePath: '/org/' }, 'data.scopePath'],
  ])('%s %j', async (type, data, field) => {
    const res = await post('/admin/configuration/edit/root/badOne', entry('Bad', data, { type }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty(field);
    expect((await get('/admin/configuration/edit/root/badOne')).statusCode).toBe(404);
  });

  it('refuses a submitter with 403, even with a valid body', async () => {
    const res = await post('/admin/configuration/edit/root/yesNo', entry('x', {}, { version: 1 }), submitter);
    expect(res.statusCode).toBe(403);
  });
});

describe('API keys and webhooks', () => {
  it('stores a PKCS#1 key as modulus and exponent', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = publicKey.export({ format: 'jwk' });
    const key = {
      modulus: Buffer.from(jwk.n as string, 'base64url').toString('base64'),
      exponent: Buffer.from(jwk.e as string, 'base64url').toString('base64'),
    };
    const res = await post(
      '/admin/configuration/edit/root/partner',
      entry(
        'Partner',
        { publicKey: key, apiScopes: ['requestRead', 'requestRead'] },
        { type: 'apiKeyEntry' },
      ),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().entry.data).toEqual({ publicKey: key, apiScopes: ['requestRead'] });
  });

  it('refuses a webhook URL that carries credentials, saying so, and keeps nothing', async () => {
    const res = await post(
      '/admin/configuration/edit/root/credentialsHook',
      entry('Hook', { url: 'https://partner:secret@hooks.example/x' }, { type: 'apiWebhookEntry' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ 'data.url': 'The URL must not carry credentials.' });
    expect((await get('/admin/configuration/edit/root/credentialsHook')).statusCode).toBe(404);
    const secrets = await t.db
      .selectFrom('configuration_secrets')
      .select('entry_id')
      .where('entry_id', '=', 'credentialsHook')
      .execute();
    expect(secrets).toEqual([]);
  });

  it('makes a signing key pair for a webhook and keeps it on later saves', async () => {
    const res = await post(
      '/admin/configuration/edit/root/hook',
      entry('Hook', { url: 'https://hooks.example/x', publicKey: 'mine' }, { type: 'apiWebhookEntry' }),
    );
    expect(res.statusCode).toBe(200);
    const data = res.json().entry.data;
    expect(data.url).toBe('https://hooks.example/x');
    expect(data.publicKey).toMatch(/^-----BEGIN RSA PUBLIC KEY-----/);
    const secret = await t.db
      .selectFrom('configuration_secrets')
      .selectAll()
      .where('entry_id', '=', 'hook')
      .executeTakeFirstOrThrow();
    expect(secret.private_key).toContain('PRIVATE KEY');
    expect(JSON.stringify(res.json())).not.toContain('PRIVATE KEY');
    const again = await post('/admin/configuration/edit/root/hook', entry('Hook 2', data, { version: 1 }));
    expect(again.json().entry.data.publicKey).toBe(data.publicKey);
  });
});

describe('templates drive the contact and help pages', () => {
  it('shows the effective contactUsPage of the user scope', async () => {
    const view = (await get('/admin/configuration/edit/orgAcme/templateContactUsPage')).json();
    const body = {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Call Acme on 1300 000 000.' }] }],
    };
    expect(
      (
        await post('/admin/configuration/edit/orgAcme/templateContactUsPage', {
          ...view.entry,
          data: { ...view.entry.data, body },
        })
      ).statusCode,
    ).toBe(200);
    expect(JSON.stringify((await get('/contact', submitter)).json().body)).toContain('Call Acme');
    expect(JSON.stringify((await get('/contact', globex)).json().body)).toContain('support@dossier.example');
    expect(JSON.stringify((await get('/contact', '')).json().body)).toContain('support@dossier.example');
    expect((await get('/help', submitter)).json().title).toBe('Help');
  });
});

describe('the cache across instances', () => {
  it('drops the cache of another instance when one changes an entry', async () => {
    const other = await buildApp({ config: t.config, db: t.db, live: t.live });
    // The same db handle shares one cache; a second handle stands for another instance.
    const { createDb } = await import('../src/db/database.js');
    const { LiveHub } = await import('../src/live/hub.js');
    const { enableConfigurationCache } = await import('../src/features/configuration/cache.js');
    const second = createDb(t.url, 2).db;
    const live = new LiveHub(t.url, console);
    await live.start();
    await enableConfigurationCache(second, live);
    const before = await getEffectiveTemplate(second, '/org/globex/', 'autoReminder');
    expect(before?.name).toBe('Auto Reminder');
    const view = (await get('/admin/configuration/edit/root/templateAutoReminder')).json();
    expect(
      (
        await post('/admin/configuration/edit/root/templateAutoReminder', {
          ...view.entry,
          name: 'Reminder v2',
        })
      ).statusCode,
    ).toBe(200);
    await expect
      .poll(async () => (await getEffectiveTemplate(second, '/org/globex/', 'autoReminder'))?.name)
      .toBe('Reminder v2');
    await live.close();
    await second.destroy();
    await other.close();
  });
});

describe('holidays drive due dates', () => {
  it('moves the due date of an open task when a holiday is added in its scope', async () => {
    // Triggered Monday 7 Dec 2026, 10:00 Sydney; followUp takes 10 business days -> Monday 21 Dec.
    const triggered = new Date('2026-12-06T23:00:00Z');
    const task = await t.db
      .insertInto('tasks')
      .values({
        type: 'followUp',
        subject: 'Follow up',
        scope: '/org/acme/',
        triggered_at: triggered,
        due_at: new Date('2026-12-20T23:00:00Z'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await post(
      '/admin/configuration/edit/orgAcme/acmeDays',
      entry('Acme days', { dates: ['2026-12-14', '26-12-15'] }, { type: 'publicHolidaysEntry' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().entry.data.dates).toEqual(['2026-12-14', '2026-12-15']);
    const row = await t.db
      .selectFrom('tasks')
      .select('due_at')
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect(row.due_at?.toISOString()).toBe('2026-12-22T23:00:00.000Z');
  });
});

describe('deleting an entry or a configuration', () => {
  const del = (c: string, id: string, cookie = admin) =>
    post(`/admin/configuration/edit/${c}/${id}/delete`, {}, cookie);
  const events = (type: string) =>
    t.db.selectFrom('events').select(['aggregate_id', 'actor', 'payload']).where('type', '=', type).execute();

  it('refuses while something depends on it, then deletes and records it', async () => {
    // An option list used by a question of an item type.
    expect(
      (
        await post(
          '/admin/configuration/edit/root/sizes',
          entry('Sizes', {}, { type: 'smartFormOptionEntry' }),
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await post(
          '/admin/configuration/edit/root/sizes:small',
          entry('Small', {}, { type: 'smartFormOptionEntry' }),
        )
      ).statusCode,
    ).toBe(200);
    const question = {
      id: 'size',
      richText: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Size?' }] }] },
      answerType: 'option',
      optionRange: 'sizes',
    };
    expect(
      (
        await post(
          '/admin/configuration/edit/root/shirts',
          entry('Shirts', { smartForm: [question] }, { type: 'requestItemTypeEntry' }),
        )
      ).statusCode,
    ).toBe(200);
    const withChild = await del('root', 'sizes');
    expect(withChild.statusCode).toBe(409);
    expect(withChild.json().message).toContain('its child "Small" (/)');
    expect(withChild.json().message).toContain('a question of "Shirts" (/)');
    // Another caller may not, whatever the dependants.
    expect((await del('root', 'sizes:small', submitter)).statusCode).toBe(403);
    expect((await del('root', 'sizes:small')).json()).toEqual({
      next: '/admin/configuration/edit/root/sizes',
    });
    expect((await del('root', 'shirts')).statusCode).toBe(200);
    expect((await del('root', 'sizes')).statusCode).toBe(200);
    expect((await get('/admin/configuration/edit/root/sizes')).statusCode).toBe(404);
    expect((await events('configurationEntryDeleted')).map((e) => (e.payload as { id: string }).id)).toEqual([
      'sizes:small',
      'shirts',
      'sizes',
    ]);
    expect((await del('root', 'sizes')).statusCode).toBe(404);
  });

  it('refuses an inherited entry and the root configuration; a configuration only once empty', async () => {
    expect((await del('orgAcme', 'templateIssueRequest')).statusCode).toBe(400);
    expect((await del('root', 'c')).statusCode).toBe(400);
    expect((await get('/admin/configuration/new?scopePath=/org/acme/branch/gone/')).statusCode).toBe(200);
    const created = await post('/admin/configuration/edit/orgAcmeBranchGone/c', {
      ...entry('Gone', { scopePath: '/org/acme/branch/gone/' }, { type: 'configurationRoot' }),
      scopePath: '/org/acme/branch/gone/',
    });
    expect(created.statusCode).toBe(200);
    expect(
      (
        await post(
          '/admin/configuration/edit/orgAcmeBranchGone/goneDays',
          entry('Gone days', { dates: [] }, { type: 'publicHolidaysEntry' }),
        )
      ).statusCode,
    ).toBe(200);
    const held = await del('orgAcmeBranchGone', 'c');
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toContain('"Gone days"');
    expect((await del('orgAcmeBranchGone', 'goneDays')).statusCode).toBe(200);
    expect((await del('orgAcmeBranchGone', 'c')).json()).toEqual({ next: '/admin/configuration' });
    expect((await get('/admin/configuration/edit/orgAcmeBranchGone/c')).statusCode).toBe(404);
    expect((await events('configurationDeleted')).map((e) => e.aggregate_id)).toEqual(['orgAcmeBranchGone']);
  });
});
