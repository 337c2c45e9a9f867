// Runs in a worker thread (bench/lib/samples.ts), so the load is generated off the event loop of
// the servers being measured, as autocannon's workers do. One sample fires every request of the
// group at once and ends when every body has been read; `connections` samples run side by side,
// again and again, until `duration` seconds are over (after `warmup` seconds not recorded).
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { group, connections, duration, warmup, maxSamples } = workerData;

async function fetchOne({ url, headers }, started) {
  const res = await fetch(url, { headers });
  const firstByte = performance.now() - started;
  let bytes = 0;
  // Read and drop the body chunk by chunk: the client keeps nothing, like a browser saving a file.
  for await (const chunk of res.body ?? []) bytes += chunk.length;
  return { status: res.status, firstByte, bytes };
}

async function sample() {
  const started = performance.now();
  const answers = await Promise.all(group.map((r) => fetchOne(r, started)));
  return {
    totalMs: performance.now() - started,
    firstByteMs: answers[0].firstByte,
    bytes: answers.reduce((n, a) => n + a.bytes, 0),
    failed: answers.filter((a) => a.status < 200 || a.status >= 300).length,
  };
}

async function loop(until, record) {
  const samples = [];
  while (performance.now() < until && (!maxSamples || samples.length < maxSamples)) {
    try {
      const s = await sample();
      if (record) samples.push(s);
    } catch (error) {
      if (record)
        samples.push({ totalMs: 0, firstByteMs: 0, bytes: 0, failed: group.length, error: String(error) });
    }
  }
  return samples;
}

// Every process's busy CPU time so far in ms (user, nice, system, irq, softirq, steal ticks of 10 ms).
function busyMs() {
  try {
    const t = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    return (t[0] + t[1] + t[2] + t[5] + t[6] + t[7]) * 10;
  } catch {
    return undefined;
  }
}

const now = performance.now();
if (warmup > 0)
  await Promise.all(Array.from({ length: connections }, () => loop(now + warmup * 1000, false)));
const start = performance.now();
const busyAtStart = busyMs();
const runs = await Promise.all(
  Array.from({ length: connections }, () => loop(start + duration * 1000, true)),
);
const busyAtEnd = busyMs();
parentPort.postMessage({
  samples: runs.flat(),
  seconds: (performance.now() - start) / 1000,
  ...(busyAtStart !== undefined && busyAtEnd !== undefined ? { busyMs: busyAtEnd - busyAtStart } : {}),
});
