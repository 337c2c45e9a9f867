// The wizard's submission as others see it: webhooks queued with it, smart-form answers re-checked.
import { configurationIdOf, permissionsOfRoles } from '@dossier/core';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { createRequestBodySchema, submitRequest } from '../src/features/wizard/createRequest.js';
import { loadSecret } from '../src/files/signing.js';
import { createLocalStorage } from '../src/files/storage.js';
import type { Actor } from '../src/http/actor.js';
import type { JobQueue } from '../src/jobs/queue.js';
import type { TestContext } from './helpers.js';
import { ACME, useWizardWorld } from './wizardWorld.js';

const world = useWizardWorld();
const { call, requestData } = world;
let t: TestContext;
let sam: string;
beforeAll(() => {
  ({ t, sam } = world);
});

describe('webhooks', () => {
  it("queues a requestSubmitted delivery to the organisation's webhooks in the same transaction", async () => {
    await t.db
      .insertInto('configuration_entries')
      .values({
        configuration_id: configurationIdOf('/'),
        id: 'hookSubmitted',
        parent_id: 'c',
        type: 'apiWebhookEntry',
        name: 'Submitted hook',
        order: 0,
        is_default: false,
        data: JSON.stringify({ url: 'https://hooks.example/dossier' }),
      })
      .execute();
    invalidateConfigurationCache(t.db);
    const sent: unknown[] = [];
    const jobs = { send: async (_trx: unknown, queue: string, data: unknown) => sent.push({ queue, data }) };
    const files = {
      db: t.db,
      storage: createLocalStorage(t.config.files.dir),
      secret: await loadSecret(t.db, 'files.uploadSigning'),
      maxBytes: t.config.files.maxBytes,
    };
    const roles = [{ role: 'c:roles:submitter', scope: ACME }];
    const actor = {
      id: 'sam',
      name: 'Sam',
      email: 'sam@test.example',
      locale: 'en-au',
      countryCode: 'AU',
      scope: ACME,
      roles,
      permissions: permissionsOfRoles(roles.map((r) => r.role)),
      sessionId: 'test',
    } as Actor;
    const data = await requestData(sam);
    const { requestNumber } = await t.db
      .transaction()
      .execute((trx) =>
        submitRequest(
          trx,
          { files, jobs: jobs as unknown as JobQueue },
          actor,
          createRequestBodySchema.parse(data),
        ),
      );
    const delivery = await t.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('entry_id', '=', 'hookSubmitted')
      .executeTakeFirstOrThrow();
    expect(delivery.event_type).toBe('requestSubmitted');
    expect((delivery.payload as { data: { requestNumber: string } }).data.requestNumber).toBe(requestNumber);
    expect(sent).toEqual([{ queue: 'webhook.deliver', data: { deliveryId: delivery.id } }]);
  });
});

describe('decimal answers of smart forms', () => {
  // The demo's general practice form gets a weight (1 decimal), a count (digits only) and a dose
  // (the default 2 decimals) nested under its first question.
  let original: unknown;
  beforeAll(async () => {
    const row = await t.db
      .selectFrom('configuration_entries')
      .select('data')
      .where('id', '=', 'itemGeneralPractice')
      .executeTakeFirstOrThrow();
    original = row.data;
    const data = structuredClone(row.data) as { smartForm: Record<string, unknown>[] };
    const decimal = (id: string, decimalPrecision?: number) => ({
      id,
      name: id,
      richText: null,
      answerType: 'decimalNumber',
      ...(decimalPrecision === undefined ? {} : { decimalPrecision }),
      nestedForm: [],
      tableColumns: [],
    });
    data.smartForm.push(decimal('weightKg', 1), decimal('visits', 0));
    data.smartForm[0]!.nestedForm = [decimal('dose')];
    await t.db
      .updateTable('configuration_entries')
      .set({ data: JSON.stringify(data) })
      .where('id', '=', 'itemGeneralPractice')
      .execute();
    invalidateConfigurationCache(t.db);
  });
  afterAll(async () => {
    await t.db
      .updateTable('configuration_entries')
      .set({ data: JSON.stringify(original) })
      .where('id', '=', 'itemGeneralPractice')
      .execute();
    invalidateConfigurationCache(t.db);
  });

  const submit = async (answers: Record<string, unknown>, excludedQuestions: string[] = []) => {
    const data = await requestData(sam);
    const [item] = data.content.itemTypes;
    assert(item);
    Object.assign(item, {
      smartFormAnswers: { ...item.smartFormAnswers, ...answers },
      excludedQuestions,
    });
    return call(sam, 'POST', '/requests', data);
  };
  const count = async () =>
    Number(
      (
        await t.db
          .selectFrom('requests')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a decimal answer its input would not take, on the field, and creates nothing', async () => {
    const before = await count();
    const res = await submit({ weightKg: '72.55', visits: '3.5', dose: '1,5' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'content.itemTypes.0.smartFormAnswers.weightKg': 'Enter a number with at most 1 decimal.',
      'content.itemTypes.0.smartFormAnswers.visits': 'Enter a whole number (digits only).',
      'content.itemTypes.0.smartFormAnswers.dose': 'Enter a number with at most 2 decimals.',
    });
    for (const bad of [
      { weightKg: '-4' },
      { weightKg: 'abc' },
      { weightKg: '1e3' },
      { visits: 12.5 },
      { dose: true },
    ]) {
      const refused = await submit(bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(refused.json().fields)).toEqual([
        `content.itemTypes.0.smartFormAnswers.${Object.keys(bad)[0]}`,
      ]);
    }
    expect(await count()).toBe(before);
  });

  it('takes valid, empty and excluded decimal answers', async () => {
    const res = await submit({ weightKg: '72.5', visits: 12, dose: '' }, []);
    expect(res.statusCode, res.body).toBe(200);
    const excluded = await submit({ weightKg: '72.55' }, ['weightKg']);
    expect(excluded.statusCode, excluded.body).toBe(200);
  });
});
