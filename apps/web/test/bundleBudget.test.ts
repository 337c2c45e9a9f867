import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// What the first page load costs (issue 15): the script the built index.html loads and preloads,
// gzipped, at most 300 KB in all; pages and heavy widgets are chunks of their own loaded on use.
// Reads the production build (`npm run build`; npm test builds first).

const dist = path.resolve(import.meta.dirname, '../dist');
const INITIAL_BUDGET = 300 * 1024;

const gzipped = (file: string) => gzipSync(fs.readFileSync(path.join(dist, file))).length;

describe('the production bundle', () => {
  it('loads at most 300 KB of gzipped script on the first page', () => {
    expect(fs.existsSync(path.join(dist, 'index.html')), 'run npm run build first').toBe(true);
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
    expect(scripts.length).toBeGreaterThan(0);
    const total = scripts.reduce((sum, f) => sum + gzipped(f), 0);
    console.log(`[bundle] first load: ${scripts.length} scripts, ${(total / 1024).toFixed(1)} KB gzipped`);
    expect(total).toBeLessThanOrEqual(INITIAL_BUDGET);
    // The request page and the wizard are not part of the first load.
    expect(
      scripts.some((f) => /RequestPage|NewRequestPage|EntryPage|RichTextEditor|ReportChart/.test(f)),
    ).toBe(false);
  });
});
