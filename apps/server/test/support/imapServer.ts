import net from 'node:net';

// A minimal IMAP4rev1 server for the polling tests: one mailbox (INBOX) held in memory, plain TCP,
// LOGIN with one user. It answers what imapflow sends to connect, open a mailbox, search, fetch
// and flag (CAPABILITY, LOGIN, NAMESPACE, LIST, SELECT/EXAMINE, UID SEARCH, UID FETCH with UID,
// FLAGS, RFC822.SIZE and BODY.PEEK[] (also partial), UID STORE, NOOP, CLOSE, LOGOUT; ID and ENABLE
// when asked, though they are not advertised). Client literals ({n}) are accepted. Every command is
// logged, and a test can make UID STORE fail to play a crash between storing and marking \Seen.

export interface TestImapMessage {
  uid: number;
  raw: Buffer;
  flags: Set<string>;
}

const CAPABILITIES = 'IMAP4rev1 NAMESPACE';

export interface TestImapServer {
  port: number;
  user: string;
  pass: string;
  messages: TestImapMessage[];
  /** Every command received, as `COMMAND args` (literals shown as {n}). */
  commands: string[];
  /** When set, UID STORE answers NO (the marking fails after the message was fetched). */
  failStore: boolean;
  uidValidity: number;
  add(raw: string | Buffer, flags?: string[]): number;
  /** A new UIDVALIDITY with every message renumbered, as after a mailbox rebuild. */
  renumber(): void;
  close(): Promise<void>;
}

const quote = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** Splits arguments into atoms, quoted strings, literals and parenthesised groups (kept raw). */
function tokenize(text: string, literals: Buffer[]): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ') {
      i++;
    } else if (c === '"') {
      let value = '';
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') i++;
        value += text[i++];
      }
      i++;
      tokens.push(value);
    } else if (c === '\u0000') {
      const end = text.indexOf('\u0000', i + 1);
      const literal = literals[Number(text.slice(i + 1, end))];
      if (!literal) throw new Error('IMAP test server: a command refers to a literal it did not send.');
      tokens.push(literal.toString('utf8'));
      i = end + 1;
    } else if (c === '(') {
      let depth = 0;
      const start = i;
      do {
        if (text[i] === '(') depth++;
        if (text[i] === ')') depth--;
        i++;
      } while (depth > 0 && i < text.length);
      tokens.push(text.slice(start, i));
    } else {
      const start = i;
      // An atom runs to the next space, except inside [..] (BODY.PEEK[HEADER.FIELDS (A B)]).
      let bracket = 0;
      while (i < text.length && (text[i] !== ' ' || bracket > 0)) {
        if (text[i] === '[') bracket++;
        if (text[i] === ']') bracket--;
        i++;
      }
      tokens.push(text.slice(start, i));
    }
  }
  return tokens;
}

/** The members of a sequence set such as `1:3,7,9:*` among the given numbers. */
function inSet(set: string, values: number[]): number[] {
  const max = values.length ? Math.max(...values) : 0;
  const num = (s: string) => (s === '*' ? max : Number(s));
  return values.filter((v) =>
    set.split(',').some((part) => {
      const [a = '', b] = part.split(':'); // split always yields a first part
      if (b === undefined) return v === num(a);
      return v >= Math.min(num(a), num(b)) && v <= Math.max(num(a), num(b));
    }),
  );
}

export async function startTestImapServer(user = 'dossier', pass = 'imap-secret'): Promise<TestImapServer> {
  const sockets = new Set<net.Socket>();
  const state: TestImapServer = {
    port: 0,
    user,
    pass,
    messages: [],
    commands: [],
    failStore: false,
    uidValidity: 1_700_000_001,
    add(raw, flags = []) {
      const uid = (state.messages.at(-1)?.uid ?? 0) + 1;
      state.messages.push({ uid, raw: Buffer.isBuffer(raw) ? raw : Buffer.from(raw), flags: new Set(flags) });
      return uid;
    },
    renumber() {
      state.uidValidity += 1;
      state.messages = state.messages.map((m, i) => ({ ...m, uid: i + 1 }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    let pending: { text: string; literals: Buffer[]; need: number } | undefined;
    let authenticated = false;
    let selected = false;
    const send = (line: string | Buffer) => socket.write(line);

    function handle(text: string, literals: Buffer[]) {
      const [tag, rawCommand, ...rest] = tokenize(text, literals);
      let command = (rawCommand ?? '').toUpperCase();
      let args = rest;
      let byUid = false;
      if (command === 'UID') {
        byUid = true;
        command = `UID ${(args[0] ?? '').toUpperCase()}`;
        args = args.slice(1);
      }
      const shown =
        command === 'LOGIN'
          ? '(credentials)'
          : text
              .split(' ')
              .slice(byUid ? 3 : 2)
              .join(' ');
      state.commands.push(`${command} ${shown.replace(/\u0000\d+\u0000/g, '{literal}')}`.trim());
      const ok = (message = `${command} completed`) => send(`${tag} OK ${message}\r\n`);
      const seqOf = (m: TestImapMessage) => state.messages.indexOf(m) + 1;
      switch (command) {
        case 'CAPABILITY':
          send(`* CAPABILITY ${CAPABILITIES}\r\n`);
          return ok();
        case 'NOOP':
        case 'CHECK':
          return ok();
        case 'ID':
          send('* ID ("name" "dossier-test-imap")\r\n');
          return ok();
        case 'ENABLE':
          send('* ENABLED\r\n');
          return ok();
        case 'LOGIN':
          if (args[0] !== state.user || args[1] !== state.pass)
            return send(`${tag} NO [AUTHENTICATIONFAILED] Invalid credentials\r\n`);
          authenticated = true;
          return ok(`[CAPABILITY ${CAPABILITIES}] LOGIN completed`);
        case 'LOGOUT':
          send('* BYE Logging out\r\n');
          ok();
          socket.end();
          return;
      }
      if (!authenticated) return send(`${tag} NO Log in first\r\n`);
      switch (command) {
        case 'NAMESPACE':
          send('* NAMESPACE (("" "/")) NIL NIL\r\n');
          return ok();
        case 'LIST':
        case 'LSUB':
          if ((args[1] ?? '').toUpperCase() === 'INBOX' || args[1] === '*' || args[1] === '%')
            send(`* ${command} (\\HasNoChildren) "/" INBOX\r\n`);
          return ok();
        case 'SELECT':
        case 'EXAMINE': {
          if ((args[0] ?? '').toUpperCase() !== 'INBOX') return send(`${tag} NO No such mailbox\r\n`);
          selected = true;
          const uidNext = (state.messages.at(-1)?.uid ?? 0) + 1;
          send('* FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft)\r\n');
          send('* OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft)] Flags permitted\r\n');
          send(`* ${state.messages.length} EXISTS\r\n* 0 RECENT\r\n`);
          send(`* OK [UIDVALIDITY ${state.uidValidity}] UIDs valid\r\n`);
          send(`* OK [UIDNEXT ${uidNext}] Predicted next UID\r\n`);
          return ok(command === 'SELECT' ? '[READ-WRITE] SELECT completed' : '[READ-ONLY] EXAMINE completed');
        }
        case 'CLOSE':
        case 'UNSELECT':
          selected = false;
          return ok();
      }
      if (!selected) return send(`${tag} NO Select a mailbox first\r\n`);
      switch (command) {
        case 'UID SEARCH':
        case 'SEARCH': {
          let found = [...state.messages];
          for (let i = 0; i < args.length; i++) {
            const key = args[i]!.toUpperCase();
            if (key === 'UNSEEN') found = found.filter((m) => !m.flags.has('\\Seen'));
            else if (key === 'SEEN') found = found.filter((m) => m.flags.has('\\Seen'));
            else if (key === 'UID') {
              const uids = inSet(
                args[++i] ?? '', // no set: no message
                state.messages.map((m) => m.uid),
              );
              found = found.filter((m) => uids.includes(m.uid));
            } else if (key !== 'ALL') return send(`${tag} BAD Unsupported search key ${key}\r\n`);
          }
          send(`* SEARCH${found.map((m) => ` ${byUid ? m.uid : seqOf(m)}`).join('')}\r\n`);
          return ok();
        }
        case 'UID FETCH': {
          const wanted = state.messages.filter((m) =>
            inSet(
              args[0] ?? '', // no set: no message
              state.messages.map((x) => x.uid),
            ).includes(m.uid),
          );
          const items = (args[1] ?? '').replace(/^\(|\)$/g, '').toUpperCase();
          const partial = /BODY(?:\.PEEK)?\[\]<(\d+)(?:\.(\d+))?>/.exec(items);
          for (const m of wanted) {
            const parts = [`UID ${m.uid}`];
            if (/\bFLAGS\b/.test(items)) parts.push(`FLAGS (${[...m.flags].join(' ')})`);
            if (items.includes('RFC822.SIZE')) parts.push(`RFC822.SIZE ${m.raw.length}`);
            if (items.includes('INTERNALDATE')) parts.push('INTERNALDATE "23-Nov-2026 09:00:00 +1100"');
            let body: Buffer | undefined;
            let label = 'BODY[]';
            if (partial) {
              const start = Number(partial[1]);
              body = m.raw.subarray(start, partial[2] ? start + Number(partial[2]) : undefined);
              label = `BODY[]<${start}>`;
            } else if (/BODY(\.PEEK)?\[\]/.test(items)) body = m.raw;
            if (body && !items.includes('.PEEK')) m.flags.add('\\Seen');
            const head = `* ${seqOf(m)} FETCH (${parts.join(' ')}${body ? ` ${label} {${body.length}}\r\n` : ''}`;
            send(body ? Buffer.concat([Buffer.from(head), body, Buffer.from(')\r\n')]) : `${head})\r\n`);
          }
          return ok();
        }
        case 'UID STORE': {
          if (state.failStore) return send(`${tag} NO [SERVERBUG] Store failed\r\n`);
          const uids = inSet(
            args[0] ?? '', // no set: no message
            state.messages.map((m) => m.uid),
          );
          const mode = (args[1] ?? '').toUpperCase();
          const flags = (args[2] ?? '')
            .replace(/^\(|\)$/g, '')
            .split(' ')
            .filter(Boolean);
          for (const m of state.messages.filter((x) => uids.includes(x.uid))) {
            if (mode.startsWith('+')) for (const f of flags) m.flags.add(f);
            else if (mode.startsWith('-')) for (const f of flags) m.flags.delete(f);
            else m.flags = new Set(flags);
            if (!mode.endsWith('.SILENT'))
              send(`* ${seqOf(m)} FETCH (UID ${m.uid} FLAGS (${[...m.flags].join(' ')}))\r\n`);
          }
          return ok();
        }
      }
      return send(`${tag} BAD Unknown command ${quote(command)}\r\n`);
    }

    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (pending && pending.need > 0) {
          if (buffer.length < pending.need) return;
          pending.literals.push(buffer.subarray(0, pending.need));
          pending.text += `\u0000${pending.literals.length - 1}\u0000`;
          buffer = buffer.subarray(pending.need);
          pending.need = 0;
        }
        const end = buffer.indexOf('\r\n');
        if (end < 0) return;
        const line = buffer.subarray(0, end).toString('utf8');
        buffer = buffer.subarray(end + 2);
        const current = pending ?? { text: '', literals: [], need: 0 };
        const literal = /\{(\d+)(\+?)\}$/.exec(line);
        if (literal) {
          current.text += line.slice(0, literal.index);
          current.need = Number(literal[1]);
          pending = current;
          if (!literal[2]) send('+ Ready for literal data\r\n');
          continue;
        }
        pending = undefined;
        handle(current.text + line, current.literals);
      }
    });
    socket.write(`* OK [CAPABILITY ${CAPABILITIES}] Dossier test IMAP server ready\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as net.AddressInfo).port;
  return state;
}
