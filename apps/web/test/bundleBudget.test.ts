import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain build script, without type declarations
import { CHUNK_LIMIT, checkBundle, FIRST_LOAD_LIMIT } from '../scripts/checkBundle.mjs';

// What the pages cost (issue 15): the first load (the entry and what it imports statically,
// gzipped) at most 300 KB, every chunk loaded later at most 100 KB, and the heavy widgets (the
// rich-text editors, the report chart) out of the pages that do not need them. `npm run build`
// runs the same check; this reads that build (npm test builds first).

const dist = path.resolve(import.meta.dirname, '../dist');

interface Measures {
  firstLoad: number;
  firstFiles: { file: string; size: number }[];
  lazy: { name: string; file: string; own: number; added: number }[];
  chunks: { file: string; size: number }[];
}

describe('the production bundle', () => {
  it('keeps the first load and every lazily loaded chunk within budget', () => {
    expect(fs.existsSync(path.join(dist, '.vite', 'manifest.json')), 'run npm run build first').toBe(true);
    const result = checkBundle(dist) as { ok: boolean; failures: string[]; measures: Measures };
    expect(result.failures).toEqual([]);
    expect(result.measures.firstLoad).toBeLessThanOrEqual(FIRST_LOAD_LIMIT);
    for (const chunk of result.measures.chunks) expect(chunk.size).toBeLessThanOrEqual(CHUNK_LIMIT);
  });

  it('loads pages, editors and charts only where they are used', () => {
    const { measures } = checkBundle(dist) as { measures: Measures };
    // libphonenumber is a chunk of its own (vite.config.ts), loaded by the forms that check phone
    // numbers.
    expect(measures.chunks.filter((c) => /libphonenumber/.test(c.file))).toHaveLength(1);
    // None of the pages a first visit does not land on is in the first load, nor libphonenumber.
    expect(measures.firstFiles.map((f) => f.file).join(' ')).not.toMatch(
      /RequestPage|NewRequestPage|EntryPage|InboxPage|Admin|ReportPage|DashboardPage|Tiptap|NoteEditor|ReportChart|prosemirror|chart-foundations|libphonenumber/,
    );
    const added = (name: string) => measures.lazy.find((l) => l.name.endsWith(name))?.added ?? Number.NaN;
    // Libraries the page does not need stay out: the request page gets its editors only when a
    // panel with one opens, the report page its chart only with a run that has one, the dashboard
    // neither.
    for (const page of [
      'requests/RequestPage.tsx',
      'reports/ReportPage.tsx',
      'dashboard/DashboardPage.tsx',
    ]) {
      expect(added(page), page).toBeLessThan(100 * 1024);
    }
    expect(added('ui/TiptapEditor.tsx')).toBeGreaterThan(100 * 1024);
    expect(added('reports/ReportChart.tsx')).toBeGreaterThan(100 * 1024);
  });
});
