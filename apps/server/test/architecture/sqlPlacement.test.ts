import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './importGraph.js';

// SQL stays in repositories (docs/ARCHITECTURE.md, "Folders"): in a feature, only a repository
// (`repository.ts`, `…Repository.ts`, a `repositories/` folder) or a query module (a `queries/`
// folder: the reports, which are queries by nature) builds or runs a statement.

const FEATURES = join(repoRoot, 'apps/server/src/features');
const STATEMENT = /\.(selectFrom|insertInto|updateTable|deleteFrom|mergeInto)\(|\bsql(<[^>]*>)?`/;
const PLACE = /(^|\/)(repository\.ts|\w+Repository\.ts)$|\/(repositories|queries)\//;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('SQL in the features', () => {
  it('is written only in repositories and query modules', () => {
    const outside = files(FEATURES)
      .map((f) => relative(FEATURES, f).split(sep).join('/'))
      .filter((f) => !PLACE.test(f) && STATEMENT.test(readFileSync(join(FEATURES, f), 'utf8')));
    expect(outside).toEqual([]);
  });
});
