import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Real server processes and a real HAProxy in front of them, for the tests that prove several
// instances behave as one.

const root = path.resolve(import.meta.dirname, '../../../..');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Instance {
  port: number;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts the server from source on a fixed port, without waiting for it (its output is kept). */
export function spawnServer(port: number, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { port, child, output: () => out, exited };
}

/** Starts the server from source on a fixed port and waits until it answers. */
export async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const instance = spawnServer(port, env);
  const end = Date.now() + 60_000;
  while (Date.now() < end && instance.child.exitCode === null) {
    if (instance.output().includes('Dossier is running on')) return instance;
    await new Promise((r) => setTimeout(r, 100));
  }
  instance.child.kill('SIGKILL');
  throw new Error(`instance on ${port} did not start:\n${instance.output()}`);
}

export interface Balancer {
  port: number;
  stop(): Promise<void>;
}

/** HAProxy balancing round-robin over the instances, taking one out as soon as /readyz fails. */
export async function startHaproxy(backends: number[]): Promise<Balancer> {
  if (spawnSync('haproxy', ['-v']).status !== 0)
    throw new Error("haproxy is missing: install Debian's haproxy package (npm test does it as root)");
  const port = await freePort();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-haproxy-'));
  const config = path.join(dir, 'haproxy.cfg');
  await fs.writeFile(config, await haproxyConfig(port, backends));
  const child = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`haproxy did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    async stop() {
      child.kill('SIGTERM');
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** The load balancer setup the README documents (docs/haproxy.cfg), with this test's ports. */
export async function haproxyConfig(port: number, backends: number[]): Promise<string> {
  const documented = await fs.readFile(path.join(root, 'docs', 'haproxy.cfg'), 'utf8');
  const servers = backends.map((p, i) => `  server dossier${i + 1} 127.0.0.1:${p} check`).join('\n');
  return `${documented
    .replace(/^ {2}bind .*$/m, `  bind 127.0.0.1:${port}`)
    .replace(/^ {2}server .*$\n?/gm, '')
    .trimEnd()}\n${servers}\n`;
}
