import { createLocalStorage } from '../../src/files/storage.js';
import { receiveMessage } from '../../src/mail/incoming/receive.js';
import { createUser, signIn, type TestContext } from '../helpers.js';

/** A raw RFC 5322 message as an SMTP server would hand it over, with one attachment if given. */
export function mail(
  headers: Record<string, string>,
  body: string,
  attachment?: { name: string; type: string; bytes: Buffer },
) {
  const head = Object.entries({ 'MIME-Version': '1.0', ...headers })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  if (!attachment) return Buffer.from(`${head}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n`);
  const b = 'BOUNDARY42';
  return Buffer.from(
    `${head}\r\nContent-Type: multipart/mixed; boundary="${b}"\r\n\r\n--${b}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n` +
      `--${b}\r\nContent-Type: ${attachment.type}; name="${attachment.name}"\r\nContent-Disposition: attachment; filename="${attachment.name}"\r\n` +
      `Content-Transfer-Encoding: base64\r\n\r\n${attachment.bytes.toString('base64')}\r\n--${b}--\r\n`,
  );
}

/** Takes a raw message in as the SMTP listener does, received now unless told. */
export const receiveInto = (t: TestContext, raw: Buffer, receivedAt?: Date) =>
  receiveMessage(
    { db: t.db, storage: createLocalStorage(t.config.files.dir), live: t.live },
    raw,
    receivedAt === undefined ? {} : { receivedAt },
  );

/** The inbox tests' people, signed in: a root handler, an Acme handler and Acme's submitter. */
export async function createInboxPeople(t: TestContext) {
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'acmehandler',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  return {
    handler: await signIn(t.app, 'handler'),
    acmeHandler: await signIn(t.app, 'acmehandler'),
    submitter: await signIn(t.app, 'submitter'),
  };
}
