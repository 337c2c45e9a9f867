// Every knob of the benchmark comes from the environment; see bench/README.md.

export interface Settings {
  duration: number;
  connections: number;
  signinDuration: number;
  signinConnections: number;
  warmup: number;
  workers: number;
  only: string[] | undefined;
  databaseUrl: string | undefined;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new Error(`${name} must be a whole number of at least ${min} (got "${raw}")`);
  }
  return n;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const duration = int(env, 'BENCH_DURATION', 10, 1);
  const only = env.BENCH_ONLY?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    duration,
    connections: int(env, 'BENCH_CONNECTIONS', 10, 1),
    // Each sign-in is an argon2id verify: a few connections already saturate the CPU.
    signinDuration: int(env, 'BENCH_SIGNIN_DURATION', Math.max(1, Math.ceil(duration / 2)), 1),
    signinConnections: int(env, 'BENCH_SIGNIN_CONNECTIONS', 4, 1),
    warmup: int(env, 'BENCH_WARMUP', 1, 0),
    workers: int(env, 'BENCH_WORKERS', 1, 0),
    only: only && only.length > 0 ? only : undefined,
    databaseUrl: env.BENCH_DATABASE_URL || undefined,
  };
}
