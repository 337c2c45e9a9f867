import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// SMTP on loopback for tests: a server that stands for the outside world (it keeps what it is sent
// and refuses mailboxes named nobody@, as a real server answers 550), and a bare client that speaks
// the protocol line by line, for what client libraries will not send (a SIZE larger than announced).

export interface CaptureSmtp {
  url: string;
  received: ParsedMail[];
  /** The SMTP envelope of each message received (same order): whom it was really delivered to. */
  envelopes: { from: string; to: string[] }[];
  close(): Promise<void>;
}

export async function startCaptureSmtp(): Promise<CaptureSmtp> {
  const received: ParsedMail[] = [];
  const envelopes: CaptureSmtp['envelopes'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody@'))
        return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const { mailFrom, rcptTo } = session.envelope;
      simpleParser(stream).then((mail) => {
        received.push(mail);
        envelopes.push({
          from: mailFrom ? mailFrom.address : '',
          to: rcptTo.map((r) => r.address),
        });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    envelopes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Sends each command (a line, or the message text followed by '.' for DATA) and answers the
 * server's reply to each, the greeting first. A reply ends with a line "NNN text" (no dash).
 */
export function smtpConversation(port: number, commands: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const replies: string[] = [];
    let buffer = '';
    let current = '';
    let next = 0;
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end = buffer.indexOf('\r\n');
      while (end >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        current += `${line}\n`;
        if (/^\d{3} /.test(line)) {
          replies.push(current.trim());
          current = '';
          if (next < commands.length) socket.write(`${commands[next++]}\r\n`);
          else socket.end();
        }
        end = buffer.indexOf('\r\n');
      }
    });
    socket.on('close', () => resolve(replies));
  });
}
