import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { rootEntries } from '../src/db/seedConfiguration.js';
import { openSecrets } from '../src/features/recipientAccess/seal.js';
import { sendAutoReminder } from '../src/features/workflow/reminders.js';
import { storageFromConfig } from '../src/files/fromConfig.js';
import { type MailTransport, sendDueMail } from '../src/mail/sender.js';
import type { TestContext } from './helpers.js';
import { cookie, enter, issued, useRecipientWorld, world } from './support/recipientWorld.js';
import { post } from './support/resultsInvoices.js';

// Issue 34: the automatic reminder to the recipient carries the link of the recipient's page again,
// read from its sealed value (under the key of the configuration, not in the database), with the
// passcode in a second mail to the same address; never the two in one mail. A link that no longer
// works is not put in a reminder. Reminders render the demo's autoReminder template.

useRecipientWorld();
let t: TestContext;
beforeAll(async () => {
  t = world.t;
  const template = rootEntries().find((e) => e.id === 'templateAutoReminder');
  await t.db
    .insertInto('configurations')
    .values({ id: 'cfgAcme', scope_path: '/org/acme/', name: 'Acme' })
    .execute();
  await t.db
    .insertInto('configuration_entries')
    .values({
      configuration_id: 'cfgAcme',
      id: 'tplReminder',
      parent_id: 'c',
      type: 'templateEntry',
      name: 'Auto Reminder',
      is_default: true,
      data: JSON.stringify(template?.data),
    })
    .execute();
});

const LINK = /\/r\/([A-Za-z0-9_-]+)/;
const PASSCODE = /is: ([A-Z0-9]{8})/;

let lastSent: boolean | string = false;

/** Makes the request's followUp overdue and sends today's reminder; answers the mails it queued. */
async function remind(n: string, config: Config = t.config) {
  await world.engine.drain();
  const followUp = await t.db
    .selectFrom('tasks')
    .select('id')
    .where('request_number', '=', n)
    .where('type', '=', 'followUp')
    .where('completed_at', 'is', null)
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable('tasks')
    .set({ due_at: new Date(Date.now() - 86_400_000) })
    .where('id', '=', followUp.id)
    .execute();
  const mails = () =>
    t.db
      .selectFrom('mail_outbox')
      .select(['to', 'subject', 'text', 'html'])
      .where('request_number', '=', n)
      .orderBy('id')
      .execute();
  const before = (await mails()).length;
  const sent = await t.db
    .transaction()
    .execute((trx) => sendAutoReminder(trx, followUp.id, new Date(), config));
  expect(sent).toBeTruthy();
  lastSent = sent;
  return (await mails()).slice(before);
}

const accessOf = (n: string) =>
  t.db
    .selectFrom('recipient_accesses')
    .selectAll()
    .where('request_number', '=', n)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();

describe('the reminder to the recipient', () => {
  it("carries the link of the recipient's page; the passcode follows in a mail of its own", async () => {
    const { n, token } = await issued();
    const [reminder, second, ...more] = await remind(n);
    expect(more).toEqual([]);
    expect([reminder?.to, reminder?.subject]).toEqual([
      'records@northside.example',
      `Reminder: request ${n}`,
    ]);
    expect([second?.to, second?.subject]).toEqual(['records@northside.example', `Passcode for request ${n}`]);
    // The demo's template, its placeholders filled in.
    expect(reminder?.text).toContain(`We are still waiting for the records of request ${n}`);
    expect(reminder?.text).toContain('upload the records and your invoice at http');
    expect(reminder?.text).toContain('(the passcode is sent to you in a separate mail)');
    expect(reminder?.text).not.toContain('${');
    const link = LINK.exec(reminder?.text ?? '')?.[1] ?? '';
    const passcode = PASSCODE.exec(second?.text ?? '')?.[1] ?? '';
    expect(link).toBe(token);
    expect(second?.text).toContain('Open the link in our reminder about this request');
    // Never the two in one mail, in either of its forms.
    expect(`${reminder?.text} ${reminder?.html}`).not.toContain(passcode);
    expect(`${second?.text} ${second?.html}`).not.toContain(link);
    // The reminder's link opens the page with the passcode of its second mail.
    const opened = await enter(link, passcode);
    expect(opened.res.statusCode, opened.res.body).toBe(200);
    expect(opened.res.json().state).toBe('open');
    expect(opened.res.json().request.requestNumber).toBe(n);
  });

  it('by email too for a request issued by fax or post: the link, then the passcode apart', async () => {
    for (const method of ['faxNumber', 'postal']) {
      const { n } = await issued(method, { fax: '02 9000 0001' });
      const [reminder, second, ...more] = await remind(n);
      expect(more).toEqual([]);
      const link = LINK.exec(reminder?.text ?? '')?.[1] ?? '';
      const passcode = PASSCODE.exec(second?.text ?? '')?.[1] ?? '';
      expect(reminder?.text).not.toContain(passcode);
      expect((await enter(link, passcode)).res.statusCode).toBe(200);
    }
  });

  it.each([
    ['revoked', { revoked_at: new Date() }],
    ['expired', { expires_at: new Date(Date.now() - 60_000) }],
    ['locked', { locked_at: new Date() }],
  ])('puts no %s link in a reminder, and sends no passcode', async (state, change) => {
    const { n, token } = await issued();
    if (state === 'revoked') {
      const { id } = await accessOf(n);
      const res = await post(t, cookie.handler, `/requests/${n}/actions/revokeRecipientAccess`, {
        accessId: id,
      });
      expect(res.statusCode, res.body).toBe(200);
    } else await t.db.updateTable('recipient_accesses').set(change).where('request_number', '=', n).execute();
    const mails = await remind(n);
    expect(mails.map((m) => m.subject)).toEqual([`Reminder: request ${n}`]);
    expect(mails[0]?.text).not.toContain(token);
    expect(mails[0]?.text).not.toMatch(LINK);
    expect(mails[0]?.text).not.toContain('answer online');
    expect(mails[0]?.text).toContain('Please reply quoting the request number.');
  });

  it("keeps today's wording for a link made before links were sealed", async () => {
    const { n, token } = await issued();
    await t.db
      .updateTable('recipient_accesses')
      .set({ sealed: null })
      .where('request_number', '=', n)
      .execute();
    const mails = await remind(n);
    expect(lastSent).toBe(true);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('You can answer online with the link and passcode of our request.');
    expect(mails[0]?.text).not.toContain(token);
  });
});

describe('a copy of the database without the key', () => {
  it('holds no link or passcode in the clear; the hashes alone still check them', async () => {
    const { n, token, passcode } = await issued();
    const row = await accessOf(n);
    expect(row.sealed).toMatch(/^v1\./);
    for (const value of Object.values(row).map(String)) {
      expect(value).not.toContain(token);
      expect(value).not.toContain(passcode);
    }
    // Without the key, or with another, the sealed value opens nothing and no reminder can print it.
    expect(openSecrets(undefined, row.id, row.sealed)).toBeUndefined();
    expect(openSecrets({ current: randomBytes(32) }, row.id, row.sealed)).toBeUndefined();
    expect(openSecrets(t.config.recipientLinkKeys, row.id, row.sealed)).toEqual({ token, passcode });
    const keyless = await remind(n, { ...t.config, recipientLinkKeys: { current: randomBytes(32) } });
    expect(keyless).toHaveLength(1);
    // Sent without the link, and told apart, so the engine warns of instances with different keys.
    expect(lastSent).toBe('linkSealedElsewhere');
    expect(keyless[0]?.text).not.toContain(token);
    expect(keyless[0]?.text).toContain('You can answer online with the link and passcode of our request.');
    // The page is found by the token's hash, not by the sealed value.
    await t.db.updateTable('recipient_accesses').set({ sealed: null }).where('id', '=', row.id).execute();
    expect((await enter(token, passcode)).res.statusCode).toBe(200);
  });

  it('keeps no passcode in the outbox once its mail went out', async () => {
    const { n, token, passcode } = await issued();
    await remind(n);
    const fax = await issued('faxNumber', { fax: '02 9000 0001' });
    const faxPasscode = /passcode ([A-Z0-9]{8})/.exec(fax.mail[0]?.text ?? '')?.[1] ?? '';
    expect(faxPasscode).toHaveLength(8);
    const delivered: { to: string; text: string }[] = [];
    const transport: MailTransport = {
      async send(mail) {
        delivered.push({ to: mail.to, text: mail.text });
        return `<${delivered.length}@test.example>`;
      },
      close: () => undefined,
    };
    await sendDueMail(t.db, transport, 'Dossier <no-reply@test.example>', 500, storageFromConfig(t.config));
    // The recipient got both passcode mails (the issue's and the reminder's) as written.
    expect(delivered.filter((m) => m.text.includes(passcode))).toHaveLength(2);
    const rows = await t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text', 'html', 'sent_at'])
      .where('request_number', '=', n)
      .execute();
    expect(rows.every((r) => r.sent_at !== null)).toBe(true);
    const letters = await t.db
      .selectFrom('correspondence')
      .select('body')
      .where('request_number', '=', n)
      .execute();
    const everything = JSON.stringify([rows, letters]);
    expect(everything).not.toContain(passcode);
    // The link is there (the letter and the reminder), and it alone opens nothing.
    expect(everything).toContain(token);
    expect(rows.find((r) => r.subject.startsWith('Passcode'))?.text).toContain('It is not kept once sent');
    // The fax went out with its passcode; the outbox keeps the letter's record, without it.
    expect(delivered.some((m) => m.text.includes(faxPasscode))).toBe(true);
    const faxRow = await t.db
      .selectFrom('mail_outbox')
      .select(['text', 'html', 'sent_at'])
      .where('request_number', '=', fax.n)
      .executeTakeFirstOrThrow();
    expect(faxRow.sent_at).not.toBeNull();
    expect(JSON.stringify(faxRow)).not.toContain(faxPasscode);
    expect(faxRow.text).toContain('(printed in the letter)');
  });

  it('prints the link again after a rotation: the previous key still opens what it sealed', async () => {
    const { n, token } = await issued();
    const rotated = {
      ...t.config,
      recipientLinkKeys: { current: randomBytes(32), previous: t.config.recipientLinkKeys.current },
    };
    const [reminder, second] = await remind(n, rotated);
    expect(LINK.exec(reminder?.text ?? '')?.[1]).toBe(token);
    expect(second?.subject).toBe(`Passcode for request ${n}`);
  });
});
