import { type Config, ConfigError, loadConfig } from './config.js';
import type { SeededUser } from './db/seed.js';
import { StartAborted, startServer } from './server.js';

const log = {
  info: (msg: string) => console.log(`[dossier] ${msg}`),
  warn: (msg: string) => console.warn(`[dossier] ${msg}`),
};

// A password the operator chose is not repeated on the console, whose output is often kept in logs;
// a generated one is printed once, since nobody could sign in otherwise.
function printCredentials(users: SeededUser[], config: Config): void {
  if (users.length === 0) return;
  const shown = (u: SeededUser) =>
    u.id === 'admin'
      ? config.adminPassword
        ? '(ADMIN_PASSWORD)'
        : u.password
      : config.demoPassword
        ? '(DEMO_PASSWORD)'
        : u.password;
  const lines = users.map((u) => `  ${u.id.padEnd(10)} ${shown(u).padEnd(24)} ${u.role}`);
  // The demo requires a second factor of administrators: the first sign-in of admin enrols one.
  const note = config.seedDemo
    ? ['admin adds a second factor (an authenticator app or a passkey) at its first sign-in.']
    : [];
  console.log(
    ['', 'New database: these accounts were created (shown only this once):', ...lines, ...note, ''].join(
      '\n',
    ),
  );
}

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    // `--services=web,live` is the same as SERVICES=web,live.
    const flag = process.argv.find((a) => a.startsWith('--services='));
    config = loadConfig(flag ? { ...process.env, SERVICES: flag.slice('--services='.length) } : process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // A stop asked for while starting (migrations, demo seeding) stops what was started, down to
  // the embedded database; Node's default would end this process and leave PostgreSQL running.
  const starting = new AbortController();
  const stopWhileStarting = (signal: string) => {
    if (starting.signal.aborted) {
      log.warn(`${signal} again: exiting at once`);
      process.exit(1);
    }
    log.info(`${signal} received while starting: stopping what has started`);
    starting.abort();
  };
  const onStartSigint = () => stopWhileStarting('SIGINT');
  const onStartSigterm = () => stopWhileStarting('SIGTERM');
  process.on('SIGINT', onStartSigint);
  process.on('SIGTERM', onStartSigterm);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(config, log, { signal: starting.signal });
  } catch (error) {
    if (error instanceof StartAborted) process.exit(0);
    throw error;
  }
  process.off('SIGINT', onStartSigint);
  process.off('SIGTERM', onStartSigterm);
  printCredentials(server.seeded, config);
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info(`Dossier is running on http://localhost:${port} (Node.js ${process.version})`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      log.warn(`${signal} again: exiting at once`);
      process.exit(1);
    }
    stopping = true;
    log.info(`${signal} received: finishing requests in flight and stopping`);
    try {
      await server.stop();
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  };
  // The last line of defence: a fault no request handler caught is logged and the instance keeps
  // serving everyone else. Each such fault is a defect to fix; the process tests provoke the known
  // ones (an upload that breaks off or overruns) and check the server still answers.
  process.on('uncaughtException', (error) => {
    console.error(`[dossier] uncaught exception, still serving: ${error.stack ?? error.message}`);
  });
  process.on('unhandledRejection', (reason) => {
    console.error(
      `[dossier] unhandled rejection, still serving: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    );
  });
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(`[dossier] start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
