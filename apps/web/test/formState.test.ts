import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The edit pages keep their state in the view store (ui/forms/useFormPage.ts: the page's state is
// the view, a commit answers the refreshed view), and check their fields with the route contract's
// body schema. A second form state (@mantine/form) would hold its own copy of the values and its
// own rules: the lead decided it goes, so no page may start using it again.

const src = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

describe('the form state of the pages', () => {
  it('is the view store: nothing imports @mantine/form', () => {
    const files = sourceFiles(src);
    expect(files.length).toBeGreaterThan(100);
    const importing = files
      .filter((file) =>
        /from\s+['"]@mantine\/form['"]|import\(\s*['"]@mantine\/form['"]/.test(fs.readFileSync(file, 'utf8')),
      )
      .map((file) => path.relative(src, file));
    expect(importing).toEqual([]);
  });
});
