// The bundle budget (issue 15), run after every `vite build`: the first page load (the entry and
// every chunk it imports statically, gzipped JavaScript) stays within 300 KB, and no chunk loaded
// later (a page, or a part of a page such as the report chart or the rich-text editor) is over
// 100 KB gzipped. It prints the figures, and for each lazily loaded page what it adds to the first
// load, so a change that drags a library into the wrong place shows in the build log.
// Usage: node scripts/checkBundle.mjs [distDir]; exits 1 when over budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export const FIRST_LOAD_LIMIT = 300 * 1024;
export const CHUNK_LIMIT = 100 * 1024;

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Reads Vite's manifest and measures the first load and every lazily loaded chunk. */
export function measureBundle(distDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8'));
  const sizes = new Map();
  const gzipped = (file) => {
    if (!sizes.has(file)) {
      sizes.set(file, zlib.gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length);
    }
    return sizes.get(file);
  };
  // A chunk and everything it imports statically: what the browser must have before it runs.
  const closure = (key, seen = new Set()) => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) closure(next, seen);
    return seen;
  };
  const jsFiles = (keys) => [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const sum = (files) => files.reduce((total, f) => total + gzipped(f), 0);

  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  const firstKeys = closure(entries[0]);
  const firstFiles = jsFiles(firstKeys);
  const firstLoad = sum(firstFiles);

  const lazy = Object.keys(manifest)
    .filter((k) => manifest[k].isDynamicEntry && !firstKeys.has(k))
    .map((k) => {
      const added = jsFiles([...closure(k)].filter((c) => !firstKeys.has(c)));
      return {
        name: k.replace(/^src\//, ''),
        file: manifest[k].file,
        own: gzipped(manifest[k].file),
        added: sum(added),
      };
    })
    .sort((a, b) => b.added - a.added);
  const chunks = Object.values(manifest)
    .map((c) => c.file)
    .filter((f, i, all) => f.endsWith('.js') && all.indexOf(f) === i && !firstFiles.includes(f))
    .map((file) => ({ file, size: gzipped(file) }))
    .sort((a, b) => b.size - a.size);
  return { firstLoad, firstFiles: firstFiles.map((file) => ({ file, size: gzipped(file) })), lazy, chunks };
}

/** The budget's verdict: the lines to print and whether every limit holds. */
export function checkBundle(distDir) {
  const m = measureBundle(distDir);
  const lines = [];
  const failures = [];
  lines.push(
    `first load: ${kb(m.firstLoad)} gzipped JavaScript in ${m.firstFiles.length} files (limit ${kb(FIRST_LOAD_LIMIT)})`,
  );
  for (const f of m.firstFiles
    .slice()
    .sort((a, b) => b.size - a.size)
    .slice(0, 8)) {
    lines.push(`  ${kb(f.size).padStart(9)}  ${f.file}`);
  }
  if (m.firstLoad > FIRST_LOAD_LIMIT)
    failures.push(`the first load is ${kb(m.firstLoad)}, over ${kb(FIRST_LOAD_LIMIT)}`);
  lines.push('loaded on first use (own chunk / everything it adds to the first load):');
  for (const l of m.lazy) lines.push(`  ${kb(l.own).padStart(9)} / ${kb(l.added).padStart(9)}  ${l.name}`);
  lines.push(
    `largest chunk loaded later: ${m.chunks[0] ? `${kb(m.chunks[0].size)} ${m.chunks[0].file}` : 'none'} (limit ${kb(CHUNK_LIMIT)})`,
  );
  for (const c of m.chunks) {
    if (c.size > CHUNK_LIMIT) failures.push(`${c.file} is ${kb(c.size)} gzipped, over ${kb(CHUNK_LIMIT)}`);
  }
  return { ok: failures.length === 0, lines, failures, measures: m };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const distDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
  const result = checkBundle(distDir);
  for (const line of result.lines) console.log(`[bundle] ${line}`);
  if (!result.ok) {
    for (const failure of result.failures) console.error(`[bundle] over budget: ${failure}`);
    process.exit(1);
  }
  console.log('[bundle] within budget');
}
