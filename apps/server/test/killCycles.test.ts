import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type Instance, startInstance } from './support/processes.js';

// Kill cycles: the server takes writes (notes, half of them urgent, each of which the workflow
// answers with a task) and is killed with SIGKILL at random moments, then started again on the
// same data, KILL_CYCLES times (10 in npm test; `npm run test:faults` runs 50). Afterwards every
// write that was acknowledged is there exactly once, nothing is duplicated, and every workflow
// reaction happened exactly once. The embedded database is killed with the process it belongs to.
const external = process.env.TEST_DB === 'external';
const CYCLES = Number(process.env.KILL_CYCLES ?? 10);
// A cycle takes about 10 s on 2 cores (a restart, the embedded database's recovery, the writes).
const TIME_LIMIT_MS = Math.max(600_000, CYCLES * 25_000);
const PASSWORD = 'Demo-Pass-2026!';
const MARK = 'kill-cycle note';

let dir: string | undefined;
afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
});

/** The URL of the embedded database a running instance started in `dataDir`. */
async function embeddedUrl(dataDir: string): Promise<string> {
  const password = (await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
  const pid = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  const port = pid.split('\n')[3]?.trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/dossier`;
}

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

interface Acknowledged {
  messageId: string;
  text: string;
  urgent: boolean;
}

describe.skipIf(external)('kill cycles', { timeout: TIME_LIMIT_MS }, () => {
  it(`loses and duplicates no acknowledged write over ${CYCLES} SIGKILLs`, async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-kill-'));
    const port = await freePort();
    const env = {
      DATABASE_URL: '',
      DATA_DIR: dir,
      SEED_DEMO: 'true',
      DEMO_PASSWORD: PASSWORD,
      ADMIN_PASSWORD: PASSWORD,
      // It proves durability, not overload: a busy CI machine must not turn every write into a 503.
      OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
    };
    const base = `http://127.0.0.1:${port}`;
    let instance: Instance = await startInstance(port, env);
    const [request] = await query<{ request_number: string }>(
      await embeddedUrl(dir),
      `select request_number from requests where scope = '/org/acme/' and status <> 'closed' order by request_number limit 1`,
    );
    expect(request).toBeDefined();
    const signin = await fetch(`${base}/signin`, {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=handler&password=${encodeURIComponent(PASSWORD)}`,
    });
    const cookie = (signin.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

    const acknowledged: Acknowledged[] = [];
    let attempted = 0;
    let sequence = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      let running = true;
      const workers = Array.from({ length: 3 }, async () => {
        while (running) {
          const n = sequence++;
          const text = `${MARK} ${n}`;
          const urgent = n % 2 === 0;
          attempted++;
          try {
            const res = await fetch(`${base}/requests/${request?.request_number}/actions/addNote`, {
              method: 'POST',
              headers: { cookie, 'x-requested-with': 'x', 'content-type': 'application/json' },
              body: JSON.stringify({
                isUrgent: urgent,
                body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
              }),
            });
            const answer = (await res.json()) as { messageId?: string };
            if (res.status === 200 && answer.messageId)
              acknowledged.push({ messageId: answer.messageId, text, urgent });
          } catch {
            // The server died with this request in flight: it may or may not have been written.
          }
        }
      });
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 1_500));
      instance.child.kill('SIGKILL');
      await instance.exited;
      running = false;
      await Promise.all(workers);
      instance = await startInstance(port, env);
    }

    // The last start must catch up with every reaction owed to committed notes.
    const url = await embeddedUrl(dir);
    const urgentKeys = acknowledged
      .filter((a) => a.urgent)
      .map((a) => `senderUrgentNote:note:${a.messageId}`);
    const deadline = Date.now() + 60_000;
    let reacted = 0;
    while (Date.now() < deadline) {
      const [row] = await query<{ n: string }>(
        url,
        'select count(*) as n from tasks where workflow_key = any($1)',
        [urgentKeys],
      );
      reacted = Number(row?.n);
      if (reacted >= urgentKeys.length) break;
      await new Promise((r) => setTimeout(r, 500));
    }

    const rows = await query<{ id: string; body: string }>(
      url,
      `select id::text, body::text from correspondence where request_number = $1 and kind = 'note' and body::text like $2`,
      [request?.request_number, `%${MARK}%`],
    );
    const notes = rows.map((r) => ({ id: r.id, text: new RegExp(`${MARK} \\d+`).exec(r.body)?.[0] }));
    const byId = new Map(notes.map((n) => [n.id, n.text]));
    const lost = acknowledged.filter((a) => byId.get(a.messageId) !== a.text);
    const texts = notes.map((n) => n.text);
    const duplicates = texts.length - new Set(texts).size;
    const tasks = await query<{ workflow_key: string; n: string }>(
      url,
      `select workflow_key, count(*) as n from tasks where workflow_key like 'senderUrgentNote:note:%' group by 1`,
    );
    const duplicateReactions = tasks.filter((t) => Number(t.n) > 1).length;
    console.log(
      `[kill cycles] ${CYCLES} kills: ${attempted} writes sent, ${acknowledged.length} acknowledged, ` +
        `${notes.length} found, ${lost.length} lost, ${duplicates} duplicated; ` +
        `${urgentKeys.length} urgent notes acknowledged, ${reacted} answered by the workflow, ${duplicateReactions} twice`,
    );
    instance.child.kill('SIGTERM');
    expect(await instance.exited).toBe(0);

    expect(acknowledged.length).toBeGreaterThan(CYCLES);
    expect(lost).toEqual([]);
    expect(duplicates).toBe(0);
    expect(reacted).toBe(urgentKeys.length);
    expect(duplicateReactions).toBe(0);
  });
});
