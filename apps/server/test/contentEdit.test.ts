// The request page's Content edit covers the whole content: smart-form answers, the submitter's
// fields and field sets, checked by the wizard's rules for the item types; which item types are
// asked stays as submitted.
import type { RequestView } from '@dossier/core';
import { describe, expect, it } from 'vitest';
import { ACME, useWizardWorld } from './wizardWorld.js';

const world = useWizardWorld();

async function submitted() {
  const res = await world.call(world.sam, 'POST', '/requests', await world.requestData(world.sam, ACME));
  expect(res.statusCode).toBe(200);
  const n = res.json().requestNumber as string;
  return (await world.call(world.handler, 'GET', `/requests/${n}`)).json() as RequestView;
}

describe('Content edit', () => {
  it("saves a handler's change to smart-form answers and the submitter's fields", async () => {
    const v = await submitted();
    const [item] = v.request.content.itemTypes;
    const content = {
      ...v.request.content,
      itemTypes: [
        {
          ...item,
          smartFormAnswers: {
            ...item?.smartFormAnswers,
            consultationNotes: 'no',
            treatingDoctor: 'Dr Ellis',
          },
          submitterSuppliedFields: { patientId: 'P-78' },
        },
      ],
    };
    const n = v.request.requestNumber;
    const res = await world.call(world.handler, 'POST', `/requests/${n}/content`, {
      version: v.request.version,
      data: content,
    });
    expect(res.statusCode).toBe(200);
    const after = (await world.call(world.handler, 'GET', `/requests/${n}`)).json() as RequestView;
    expect(after.request.content.itemTypes[0]).toMatchObject({
      smartFormAnswers: { consultationNotes: 'no', treatingDoctor: 'Dr Ellis' },
      submitterSuppliedFields: { patientId: 'P-78' },
    });
  });

  it('refuses a field over its length at that field, and a change of item types, changing nothing', async () => {
    const v = await submitted();
    const n = v.request.requestNumber;
    const [item] = v.request.content.itemTypes;
    const tooLong = {
      ...v.request.content,
      itemTypes: [{ ...item, submitterSuppliedFields: { patientId: 'P'.repeat(21) } }],
    };
    const res = await world.call(world.handler, 'POST', `/requests/${n}/content`, {
      version: v.request.version,
      data: tooLong,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'itemTypes.0.submitterSuppliedFields.patientId': 'At most 20 characters.',
    });
    const other = await world.call(world.handler, 'POST', `/requests/${n}/content`, {
      version: v.request.version,
      data: { ...v.request.content, itemTypes: [{ ...item, id: 'itemDischargeSummary' }] },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().fields).toEqual({
      itemTypes: 'The item types of a submitted request can not be changed.',
    });
    const after = (await world.call(world.handler, 'GET', `/requests/${n}`)).json() as RequestView;
    expect(after.request.content).toEqual(v.request.content);
    expect(after.request.version).toBe(v.request.version);
  });

  it("refuses another organisation's submitter", async () => {
    const v = await submitted();
    const res = await world.call(world.gale, 'POST', `/requests/${v.request.requestNumber}/content`, {
      version: v.request.version,
      data: v.request.content,
    });
    expect([403, 404]).toContain(res.statusCode);
  });
});
