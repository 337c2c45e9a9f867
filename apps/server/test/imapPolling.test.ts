import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createLocalStorage } from '../src/files/storage.js';
import { ImapPoller } from '../src/mail/incoming/imap.js';
import { receiveMessage } from '../src/mail/incoming/receive.js';
import { withImapLock } from '../src/mail/incoming/repository.js';
import { createTestContext, type TestContext } from './helpers.js';
import { startTestImapServer, type TestImapServer } from './support/imapServer.js';
import { insertTestRequest } from './support/requests.js';

// Optional IMAP polling of the inbox (issue 6) against a real IMAP server speaking over a socket
// (test/support/imapServer.ts), read by imapflow as in production: matched mail becomes
// correspondence, unmatched mail waits in the inbox, and nothing is ever stored twice, whether the
// poll runs again, the marking as \Seen failed, the UIDs were renumbered or a Message-ID repeats.

let t: TestContext;
let imap: TestImapServer;
let poller: ImapPoller;
const warnings: string[] = [];
const log = { info: () => undefined, warn: (m: string) => warnings.push(m) };
const limits = { maxMessageBytes: 4 * 1024, keepBytes: 6 * 1024 };

function mail(subject: string, opts: { id?: string; body?: string; from?: string } = {}): string {
  return [
    `From: ${opts.from ?? 'Records Officer <records@northside.example>'}`,
    'To: inbox@dossier.test',
    `Subject: ${subject}`,
    `Message-ID: <${opts.id ?? `${Math.random().toString(36).slice(2)}@northside.example`}>`,
    'Date: Mon, 23 Nov 2026 09:00:00 +1100',
    'Content-Type: text/plain; charset=utf-8',
    '',
    opts.body ?? 'Please find the records.',
  ].join('\r\n');
}

const inboxCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('inbox_messages')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const messagesWith = (subject: string) =>
  t.db.selectFrom('inbox_messages').selectAll().where('subject', '=', subject).execute();
const mailboxRow = () => t.db.selectFrom('imap_mailboxes').selectAll().executeTakeFirstOrThrow();
const seen = (uid: number) => imap.messages.find((m) => m.uid === uid)?.flags.has('\\Seen');

function pollerFor(url: string) {
  const config = loadConfig({ IMAP_URL: url, IMAP_POLL_SECONDS: '5' });
  if (!config.mailIn.imap) throw new Error('IMAP_URL was not read');
  return new ImapPoller(
    { db: t.db, storage: createLocalStorage(t.config.files.dir), live: t.live },
    config.mailIn.imap,
    limits,
    log,
  );
}

beforeAll(async () => {
  t = await createTestContext();
  imap = await startTestImapServer();
  poller = pollerFor(`imap://${imap.user}:${imap.pass}@127.0.0.1:${imap.port}/INBOX`);
});
afterAll(async () => {
  await poller.stop();
  await imap.close();
  await t.close();
});

describe('IMAP_URL', () => {
  it('reads the server, user, password and mailbox, with the default port of each scheme', () => {
    const config = loadConfig({ IMAP_URL: 'imaps://me%40x.example:p%3Ass@imap.example/Dossier%20In' });
    expect(config.mailIn.imap).toEqual({
      host: 'imap.example',
      port: 993,
      secure: true,
      user: 'me@x.example',
      pass: 'p:ss',
      mailbox: 'Dossier In',
      pollSeconds: 60,
    });
    expect(loadConfig({ IMAP_URL: 'imap://u:p@h.example' }).mailIn.imap).toMatchObject({
      port: 143,
      secure: false,
      mailbox: 'INBOX',
    });
    expect(loadConfig({}).mailIn.imap).toBeUndefined();
  });

  it.each([
    ['https://u:p@imap.example/INBOX', 'IMAP_URL'],
    ['imaps://imap.example/INBOX', 'IMAP_URL'],
    ['imaps://user@imap.example/INBOX', 'IMAP_URL'],
    ['not a url', 'IMAP_URL'],
  ])('refuses %s with one clear line', (url, name) => {
    expect(() => loadConfig({ IMAP_URL: url })).toThrow(ConfigError);
    expect(() => loadConfig({ IMAP_URL: url })).toThrow(
      `Invalid environment variable ${name}: expected an imap:// or imaps:// URL with user and password`,
    );
  });

  it('refuses a poll interval out of range', () => {
    expect(() => loadConfig({ IMAP_POLL_SECONDS: '1' })).toThrow(
      'Invalid environment variable IMAP_POLL_SECONDS: expected a whole number from 5 to 86400',
    );
  });
});

describe('IMAP polling', () => {
  let requestNumber: string;

  it('takes the unseen messages: a valid request number to its correspondence, the rest to the inbox', async () => {
    requestNumber = await insertTestRequest(t.db, { scope: '/org/acme/' });
    imap.add(mail('Old and already read'), ['\\Seen']);
    const matched = imap.add(mail(`Records for ${requestNumber}`));
    const unmatched = imap.add(mail('Who handles this?', { id: 'unmatched@northside.example' }));

    const result = await poller.pollOnce();
    expect(result).toEqual({ skipped: false, stored: 2, duplicates: 0 });

    const correspondence = await t.db
      .selectFrom('correspondence')
      .selectAll()
      .where('request_number', '=', requestNumber)
      .where('kind', '=', 'message')
      .execute();
    expect(correspondence).toHaveLength(1);
    expect(correspondence[0]).toMatchObject({ subject: `Records for ${requestNumber}` });
    expect(correspondence[0]?.body).toEqual({ type: 'text', content: 'Please find the records.' });

    const [inbox] = await messagesWith('Who handles this?');
    assert(inbox);
    expect(inbox).toMatchObject({ message_id: '<unmatched@northside.example>', flag_reason: null });
    const tasks = await t.db.selectFrom('tasks').selectAll().where('message_id', '=', inbox.id).execute();
    expect(tasks).toMatchObject([{ type: 'classifyIncomingMessage', completed_at: null }]);
    // Mail read before polling began is old mail, not imported.
    expect(await messagesWith('Old and already read')).toHaveLength(0);

    expect(seen(matched)).toBe(true);
    expect(seen(unmatched)).toBe(true);
    expect(await mailboxRow()).toMatchObject({
      mailbox: `imap://dossier@127.0.0.1:${imap.port}/INBOX`,
      uid_validity: String(imap.uidValidity),
      last_uid: '3',
      last_error: null,
    });
    expect(imap.commands).toContain('UID SEARCH UNSEEN');
    expect(imap.commands.some((c) => c.startsWith('UID FETCH 2 (UID RFC822.SIZE BODY.PEEK[]<0.'))).toBe(true);
  });

  it('adds nothing when polled again, and fetches nothing', async () => {
    const before = await inboxCount();
    imap.commands.length = 0;
    expect(await poller.pollOnce()).toEqual({ skipped: false, stored: 0, duplicates: 0 });
    expect(await inboxCount()).toBe(before);
    expect(imap.commands).toContain('UID SEARCH UID 4:*');
    expect(imap.commands.filter((c) => c.startsWith('UID FETCH'))).toEqual([]);
  });

  it('takes a new message by its UID, even one somebody already read in the mailbox', async () => {
    imap.add(mail('Read in webmail before the poll'), ['\\Seen']);
    expect(await poller.pollOnce()).toMatchObject({ stored: 1 });
    expect(await messagesWith('Read in webmail before the poll')).toHaveLength(1);
  });

  it('never stores a message twice when marking it \\Seen failed after it was stored', async () => {
    const uid = imap.add(mail('Stored, then the marking failed'));
    imap.failStore = true;
    warnings.length = 0;
    expect(await poller.pollOnce()).toMatchObject({ stored: 1 });
    expect(seen(uid)).toBe(false);
    expect(warnings.join('\n')).toContain(`could not mark UID ${uid}`);
    imap.failStore = false;
    expect(await poller.pollOnce()).toMatchObject({ stored: 0, duplicates: 0 });
    expect(await messagesWith('Stored, then the marking failed')).toHaveLength(1);
  });

  it('does not store a Message-ID it already has, and counts the UID as done', async () => {
    const before = await inboxCount();
    const uid = imap.add(mail('Who handles this? (sent again)', { id: 'unmatched@northside.example' }));
    expect(await poller.pollOnce()).toEqual({ skipped: false, stored: 0, duplicates: 1 });
    expect(await inboxCount()).toBe(before);
    expect((await mailboxRow()).last_uid).toBe(String(uid));
    expect(seen(uid)).toBe(true);
  });

  it('starts again after the UIDs were renumbered, without storing anything twice', async () => {
    const before = await inboxCount();
    imap.renumber();
    const fresh = imap.add(mail('After the mailbox was rebuilt'));
    // Unseen: the new message, and the one whose marking failed (stored already, by Message-ID).
    expect(await poller.pollOnce()).toEqual({ skipped: false, stored: 1, duplicates: 1 });
    expect(await inboxCount()).toBe(before + 1);
    expect(await mailboxRow()).toMatchObject({
      uid_validity: String(imap.uidValidity),
      last_uid: String(fresh),
    });
  });

  it('keeps an oversized message flagged and unread, as the SMTP listener does', async () => {
    imap.add(mail('A very large message', { body: 'x'.repeat(8 * 1024) }));
    expect(await poller.pollOnce()).toMatchObject({ stored: 1 });
    const [flagged] = await t.db
      .selectFrom('inbox_messages')
      .selectAll()
      .where('flag_reason', 'like', 'The message is larger than%')
      .execute();
    assert(flagged);
    expect(flagged.flag_reason).toContain('only the first 6144 bytes were kept');
    expect(Number(flagged.raw_size)).toBe(6144);
  });

  it('lets one instance poll at a time', async () => {
    imap.add(mail('Waits for the lock'));
    const inner = await withImapLock(t.db, () => poller.pollOnce());
    expect(inner).toEqual({ skipped: true, stored: 0, duplicates: 0 });
    expect(await messagesWith('Waits for the lock')).toHaveLength(0);
    expect(await poller.pollOnce()).toMatchObject({ stored: 1 });
  });

  it('logs a failure, records it on the mailbox and polls again later without crashing', async () => {
    warnings.length = 0;
    const wrong = pollerFor(`imap://${imap.user}:wrong@127.0.0.1:${imap.port}/INBOX`);
    expect(await wrong.pollOnce()).toEqual({ skipped: false, stored: 0, duplicates: 0 });
    expect(warnings.join('\n')).toContain('polling imap://dossier@127.0.0.1');
    expect(warnings.join('\n')).not.toContain('wrong');
    expect((await mailboxRow()).last_error).toBeTruthy();

    const down = pollerFor('imap://u:p@127.0.0.1:1/INBOX');
    expect(await down.pollOnce()).toEqual({ skipped: false, stored: 0, duplicates: 0 });

    // The next good poll clears the error.
    expect(await poller.pollOnce()).toMatchObject({ skipped: false });
    expect((await mailboxRow()).last_error).toBeNull();
  });

  it('stores one of two deliveries of a Message-ID arriving at once (SMTP and IMAP alike)', async () => {
    const deps = { db: t.db, storage: createLocalStorage(t.config.files.dir), live: t.live };
    const raw = Buffer.from(mail('Delivered twice at once', { id: 'twice@northside.example' }));
    const answers = await Promise.all([receiveMessage(deps, raw), receiveMessage(deps, raw)]);
    expect(answers.filter((a) => a.duplicate)).toHaveLength(1);
    expect(answers[0].id).toBe(answers[1].id);
    expect(await messagesWith('Delivered twice at once')).toHaveLength(1);
  });

  it('polls on its own every IMAP_POLL_SECONDS once started', async () => {
    const running = pollerFor(`imap://${imap.user}:${imap.pass}@127.0.0.1:${imap.port}/INBOX`);
    imap.add(mail('Picked up by the timer'));
    running.start();
    const end = Date.now() + 10_000;
    while ((await messagesWith('Picked up by the timer')).length === 0 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
    await running.stop();
    expect(await messagesWith('Picked up by the timer')).toHaveLength(1);
  });
});
