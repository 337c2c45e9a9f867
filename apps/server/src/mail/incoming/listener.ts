import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { type IncomingDeps, receiveMessage } from './receive.js';

// The built-in SMTP listener of mail in (service smtp). It takes mail for the inbox address only
// and keeps every message it accepts: one that passes the size limit, whether or not the client
// announced its size, is still stored raw (up to `keepBytes`) and flagged, never refused or
// dropped. A message is acknowledged only once it is stored; if storing fails (database down) the
// sender is told to try again later (451).
// It speaks plain SMTP without TLS or authentication: put it behind the organisation's mail relay.

export interface SmtpListenerOptions {
  port: number;
  host: string;
  inboxAddress: string;
  maxMessageBytes: number;
  /** The most of one message ever kept, even flagged. */
  keepBytes: number;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface SmtpListener {
  port: number;
  close(): Promise<void>;
}

const smtpError = (message: string, responseCode: number) =>
  Object.assign(new Error(message), { responseCode });

export async function startSmtpListener(
  deps: IncomingDeps,
  options: SmtpListenerOptions,
  log: Logger,
): Promise<SmtpListener> {
  const inbox = options.inboxAddress.toLowerCase();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: options.maxMessageBytes,
    // Announce SIZE without the number and never refuse by it: a relay that declares a large
    // message at MAIL FROM (SIZE=...) must still hand it over, so it is kept and flagged. The limit
    // only decides what is read (stream.sizeExceeded below).
    hideSize: true,
    banner: 'Dossier inbox',
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.toLowerCase() === inbox) return callback();
      return callback(smtpError('No such mailbox here.', 550));
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      let kept = 0;
      let total = 0;
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (kept >= options.keepBytes) return;
        const part = chunk.subarray(0, options.keepBytes - kept);
        chunks.push(part);
        kept += part.length;
      });
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        const mb = Math.floor(options.maxMessageBytes / 1048576);
        const oversizeReason =
          stream.sizeExceeded || total > options.maxMessageBytes
            ? `The message is larger than the limit of ${mb} MB (${total} bytes)${
                total > kept ? `; only the first ${kept} bytes were kept` : ''
              }; it was kept unread.`
            : undefined;
        receiveMessage(deps, Buffer.concat(chunks), { oversizeReason })
          .then(() => callback())
          .catch((error: unknown) => {
            log.warn(
              `mail in: could not store a message: ${error instanceof Error ? error.message : String(error)}`,
            );
            callback(smtpError('The message could not be stored; try again later.', 451));
          });
      });
    },
  });
  server.on('error', (error) => log.warn(`mail in: ${error.message}`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  log.info(`Mail in: SMTP listener for ${inbox} on port ${port}`);
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
