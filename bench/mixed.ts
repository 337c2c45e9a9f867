// `npm run bench:load`: a busy hour on one instance. Simulated people work at once in a realistic
// mix (handlers viewing requests 25%, adding notes 25%, the dashboard and the inbox 20%, searching
// 15%, managers running reports 10%; submitters submitting 5%), at a fixed rate (open loop: requests are sent
// on schedule whether or not earlier ones have answered), each handler holding a live socket. Then
// one push to 2,000 open sockets. Prints throughput, p50/p95/p99 per kind and in all, errors, the
// push time, and a bare Fastify + pg single-query route measured in the same run.
// Settings: BENCH_LOAD_SECONDS (600), BENCH_LOAD_RATE (100 per second), BENCH_LOAD_USERS (10),
// BENCH_LOAD_SOCKETS (2000), BENCH_DATABASE_URL (e.g. the 1,000,000 requests of bench:generate).

import autocannon from 'autocannon';
import Fastify from 'fastify';
import { PDFDocument } from 'pdf-lib';
import pg from 'pg';
import WebSocket from 'ws';
import { dayBefore } from './cases/reports.js';
import { startDossierProcess } from './lib/child.js';
import { startDossier } from './lib/servers.js';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './lib/types.js';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 600);
const RATE = Number(process.env.BENCH_LOAD_RATE ?? 100);
const USERS = Number(process.env.BENCH_LOAD_USERS ?? 10);
const SOCKETS = Number(process.env.BENCH_LOAD_SOCKETS ?? 2000);
const WARMUP = Number(process.env.BENCH_LOAD_WARMUP ?? 30);
const MAX_IN_FLIGHT = 500;

type Kind = 'view' | 'note' | 'dashboard' | 'inbox' | 'search' | 'report' | 'submit';
const MIX: [Kind, number][] = [
  ['view', 25],
  ['note', 25],
  ['dashboard', 10],
  ['inbox', 10],
  ['search', 15],
  ['report', 10],
  ['submit', 5],
];

const REPORTS = [
  '/reports/requests/open',
  '/reports/requests/closed',
  '/reports/tasks/completed',
  '/reports/invoices/paid',
];
/** A manager's usual question: last month. (Year-long reports are measured by `npm run bench`.) */
const LAST_MONTH = `filter.from=${dayBefore(30)}&filter.to=${dayBefore(0)}`;
const SEARCHES = ['subject=smi', 'q=harbour', 'subject=jon', 'q=clinic'];

function pick(): Kind {
  let r = Math.random() * 100;
  for (const [kind, weight] of MIX) {
    r -= weight;
    if (r < 0) return kind;
  }
  return 'view';
}

async function signIn(base: string, user: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await fetch(`${base}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-requested-with': 'XMLHttpRequest' },
    body: new URLSearchParams({ username: user, password }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c?.startsWith('dossier_session='));
  if (!res.ok || !cookie) throw new Error(`signing in as ${user} answered ${res.status}`);
  return cookie;
}

const note = (text: string) => ({
  body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
});

function openSocket(base: string, cookie: string, onMessage?: (data: string) => void): Promise<WebSocket> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/__ws`, { headers: { cookie, origin: base } });
  if (onMessage) ws.on('message', (d) => onMessage(String(d)));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function bareBaseline(databaseUrl: string): Promise<{ rps: number; p95: number }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const app = Fastify({ logger: false });
  app.get('/bare', async () => (await pool.query('select 1 as ok')).rows[0]);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const result = await autocannon({
    url: `http://127.0.0.1:${address.port}/bare`,
    connections: 10,
    duration: 10,
    workers: 1,
  });
  await app.close();
  await pool.end();
  return {
    rps: result.requests.average,
    p95: (result.latency as unknown as Record<string, number>).p97_5 ?? result.latency.p99,
  };
}

async function main(): Promise<void> {
  console.log(
    'Starting: the database and a job worker in this process, the measured instance as a process of its own',
  );
  const worker = await startDossier(process.env.BENCH_DATABASE_URL);
  const server = await startDossierProcess(worker.databaseUrl, 'web,live');
  const base = server.url;
  try {
    const handlers = await Promise.all(Array.from({ length: USERS }, () => signIn(base, 'handler')));
    const submitter = await signIn(base, 'submitter');
    // Reports are a manager's.
    const manager = await signIn(base, 'manager');
    const sockets = await Promise.all(handlers.map((c) => openSocket(base, c)));
    const hits = (
      (await (
        await fetch(`${base}/requests/search?pageSize=100`, {
          headers: { cookie: handlers[0] ?? '', 'x-requested-with': 'x' },
        })
      ).json()) as { hits: { item: { requestNumber: string; status: string } }[] }
    ).hits.map((h) => h.item);
    const open = hits.filter((h) => h.status !== 'closed').map((h) => h.requestNumber);
    const any = hits.map((h) => h.requestNumber);
    if (open.length === 0) throw new Error('no open request to add notes to');
    const pdf = await PDFDocument.create();
    pdf.addPage();
    const authority = Buffer.from(await pdf.save());
    const org = '/org/acme/';

    const latencies = new Map<Kind, number[]>();
    // The first WARMUP seconds fill the database's and the app's caches; they are reported apart.
    const warmup: number[] = [];
    const errors = new Map<string, number>();
    let inFlight = 0;
    let dropped = 0;
    const one = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)] as T;
    const call = async (kind: Kind, cookie: string, path: string, init: RequestInit = {}) => {
      const res = await fetch(`${base}${path}`, {
        ...init,
        headers: {
          cookie,
          'x-requested-with': 'x',
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${kind} ${res.status} ${text.slice(0, 120)}`);
      return text;
    };
    const run = async (kind: Kind) => {
      const cookie = one(handlers);
      switch (kind) {
        case 'view':
          return call(kind, cookie, `/requests/${one(any)}`);
        case 'note':
          return call(kind, cookie, `/requests/${one(open)}/actions/addNote`, {
            method: 'POST',
            body: JSON.stringify(note(`Called the clinic at ${new Date().toISOString()}`)),
          });
        case 'dashboard':
          return call(kind, cookie, '/dashboard/activeTasks?pageSize=10');
        case 'inbox':
          return call(kind, cookie, '/inbox/search?pageSize=10');
        case 'search':
          return call(kind, cookie, `/requests/search?${one(SEARCHES)}`);
        case 'report':
          return call(kind, manager, `${one(REPORTS)}/filter?${LAST_MONTH}`);
        case 'submit': {
          const file = JSON.parse(
            await call(kind, submitter, '/files', {
              method: 'POST',
              body: JSON.stringify({
                name: 'authority.pdf',
                contentType: 'application/pdf',
                contentLength: authority.length,
              }),
            }),
          ) as { key: string; uploadUrl: string };
          const put = await fetch(`${base}${file.uploadUrl}`, {
            method: 'PUT',
            headers: { 'content-type': 'application/pdf' },
            body: authority,
          });
          if (!put.ok) throw new Error(`submit upload ${put.status}`);
          return call(kind, submitter, '/requests', {
            method: 'POST',
            body: JSON.stringify({
              sender: { organization: org },
              applicant: {
                name: 'Load Test',
                dateOfBirth: '1980-01-01',
                country: 'AU',
                authority: { key: file.key, name: 'authority.pdf' },
                reference1: 'LOAD-1',
              },
              recipient: {
                name: 'Northside Clinic',
                phone: '02 9000 1111',
                email: 'records@northside.example',
                tags: { kind: 'hospital' },
              },
              content: { itemTypes: [{ id: 'itemGeneralPractice' }] },
            }),
          });
        }
      }
    };

    console.log(
      `Mixed load: ${RATE} requests/s for ${SECONDS} s (the first ${WARMUP} s warm the caches), ${USERS} handlers with a live socket each`,
    );
    const started = Date.now();
    const pending: Promise<void>[] = [];
    let sent = 0;
    while (Date.now() - started < SECONDS * 1000) {
      const due = started + (sent * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sent++;
      if (inFlight >= MAX_IN_FLIGHT) {
        dropped++;
        continue;
      }
      const kind = pick();
      const t0 = performance.now();
      inFlight++;
      const p = run(kind)
        .then(() => {
          const ms = performance.now() - t0;
          if (Date.now() - started < WARMUP * 1000) {
            warmup.push(ms);
            return;
          }
          const list = latencies.get(kind) ?? [];
          list.push(ms);
          latencies.set(kind, list);
        })
        .catch((error: unknown) => {
          const key = error instanceof Error ? error.message.slice(0, 80) : String(error);
          errors.set(key, (errors.get(key) ?? 0) + 1);
        })
        .finally(() => {
          inFlight--;
        });
      pending.push(p);
      if (sent % (RATE * 30) === 0)
        console.log(`  ${Math.round((Date.now() - started) / 1000)} s: ${sent} sent, ${inFlight} in flight`);
    }
    await Promise.all(pending);
    const elapsed = (Date.now() - started) / 1000;
    for (const ws of sockets) ws.close();

    const all = [...latencies.values()].flat().sort((a, b) => a - b);
    const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
    console.log(`\nkind        count   p50 ms   p95 ms   p99 ms`);
    for (const [kind] of MIX) {
      const list = (latencies.get(kind) ?? []).sort((a, b) => a - b);
      console.log(
        `${kind.padEnd(10)} ${String(list.length).padStart(6)} ${percentile(list, 50).toFixed(0).padStart(8)} ${percentile(list, 95).toFixed(0).padStart(8)} ${percentile(list, 99).toFixed(0).padStart(8)}`,
      );
    }
    const throughput = all.length / Math.max(1, elapsed - WARMUP);
    warmup.sort((a, b) => a - b);
    console.log(
      `warm-up    ${String(warmup.length).padStart(6)} ${percentile(warmup, 50).toFixed(0).padStart(8)} ${percentile(warmup, 95).toFixed(0).padStart(8)} ${percentile(warmup, 99).toFixed(0).padStart(8)}   (first ${WARMUP} s, not in the figures above)`,
    );
    console.log(
      `all        ${String(all.length).padStart(6)} ${percentile(all, 50).toFixed(0).padStart(8)} ${percentile(all, 95).toFixed(0).padStart(8)} ${percentile(all, 99).toFixed(0).padStart(8)}`,
    );
    console.log(
      `\n${throughput.toFixed(1)} answered requests/s over ${Math.max(0, elapsed - WARMUP).toFixed(0)} s after the warm-up; ${errorCount} errors; ${dropped} not sent (over ${MAX_IN_FLIGHT} in flight)`,
    );
    for (const [message, n] of errors) console.log(`  ${n} × ${message}`);

    // One push to many sockets: SOCKETS sockets of one administrator session, a note mentioning them.
    const admin = await signIn(base, 'admin', ADMIN_PASSWORD);
    let reached = 0;
    let allReached: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      allReached = resolve;
    });
    const many: WebSocket[] = [];
    for (let i = 0; i < SOCKETS; i += 100) {
      many.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(100, SOCKETS - i) }, () =>
            openSocket(base, admin, (data) => {
              if (data.includes('"notification"') && ++reached === SOCKETS) allReached();
            }),
          ),
        )),
      );
    }
    const pushStarted = performance.now();
    await call('note', one(handlers), `/requests/${one(open)}/actions/addNote`, {
      method: 'POST',
      body: JSON.stringify(note('Please look at this, @[Administrator](admin).')),
    });
    const answered = performance.now() - pushStarted;
    await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
    const pushMs = performance.now() - pushStarted;
    console.log(
      `Live push: ${reached} of ${SOCKETS} sockets reached ${reached === SOCKETS ? `in ${pushMs.toFixed(0)} ms` : 'within 10 s'} of the note (its answer took ${answered.toFixed(0)} ms)`,
    );
    for (const ws of many) ws.terminate();

    const bare = await bareBaseline(worker.databaseUrl);
    console.log(
      `Bare Fastify + pg (select 1), 10 connections: ${bare.rps.toFixed(0)} req/s; the mixed load used ${((throughput / bare.rps) * 100).toFixed(1)}% of that rate`,
    );
    const ok = errorCount === 0 && reached === SOCKETS;
    process.exitCode = ok ? 0 : 1;
  } finally {
    await server.stop();
    await worker.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
