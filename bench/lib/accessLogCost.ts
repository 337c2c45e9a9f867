import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { AccessLog } from '../../apps/server/src/audit/accessLog.js';
import { createDb } from '../../apps/server/src/db/database.js';

// The access log's cost to the machine per entry, measured directly: entries queued and flushed in
// batches of a given size by the server's own AccessLog, timing this process's CPU and that of the
// PostgreSQL backend doing the INSERTs (Linux /proc/<pid>/stat). Steady to a few percent, where the
// request view's latency on two saturated cores scatters by several milliseconds.

const TICK_MS = 10;

function backendCpuMs(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

export interface EntryCost {
  batch: number;
  entries: number;
  serverUs: number;
  databaseUs: number;
}

/** CPU per entry (µs) in this process and in the database, for each batch size. */
export async function accessLogEntryCost(databaseUrl: string, batches: number[], entries = 60_000) {
  const { db, pool } = createDb(databaseUrl, 1);
  const log = new AccessLog(db, true, console);
  try {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
    const pid = rows[0]?.pid ?? 0;
    const costs: EntryCost[] = [];
    for (const batch of batches) {
      const cpu = process.cpuUsage();
      const database = backendCpuMs(pid);
      for (let i = 0; i < entries; i += batch) {
        for (let j = 0; j < batch; j++)
          log.record({
            reader: { userId: 'handler' },
            what: 'request',
            via: 'page',
            requestNumber: 'BENCH-COST',
            address: '127.0.0.1',
          });
        await log.flush();
      }
      const used = process.cpuUsage(cpu);
      costs.push({
        batch,
        entries,
        serverUs: (used.user + used.system) / entries,
        databaseUs: ((backendCpuMs(pid) - database) * 1000) / entries,
      });
    }
    return costs;
  } catch {
    return undefined;
  } finally {
    await log.close();
    await pool.end();
  }
}
