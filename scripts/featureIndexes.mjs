#!/usr/bin/env node
// Routes every import from one server feature into another through that feature's index.ts:
// rewrites `../requests/policy.js` to `../requests/index.js` and adds what was imported to the
// index's exports. Run it after adding a cross-feature import (or after a merge that brought some
// back); apps/server/test/architecture/importGraph.test.ts fails until then. Then `npm run format`.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

const featuresDir = resolve(import.meta.dirname, '../apps/server/src/features');

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const featureOf = (path) => relative(featuresDir, path).split('/')[0];
const toSpecifier = (from, to) => {
  const rel = relative(dirname(from), to).replace(/\.ts$/, '.js');
  return rel.startsWith('.') ? rel : `./${rel}`;
};

// import type? { a, type b as c } from '…' | import * as ns from '…' | import '…' | export { … } from '…'
const STATEMENT =
  /^(import|export)(\s+type)?\s+(?:(\{[^}]*\})|\*\s+as\s+(\w+))\s+from\s+'(\.[^']+)';|^import\s+'(\.[^']+)';/gm;

/** feature → file → { values: Set, types: Set, namespace: alias?, sideEffect } */
const needs = new Map();
const need = (target) => {
  const feature = featureOf(target);
  if (!needs.has(feature)) needs.set(feature, new Map());
  const files = needs.get(feature);
  if (!files.has(target))
    files.set(target, { values: new Set(), types: new Set(), namespace: null, sideEffect: false });
  return files.get(target);
};
const namespaceAlias = (target) =>
  `${featureOf(target)}${basename(target, '.ts').replace(/^./, (c) => c.toUpperCase())}`;

for (const file of sourceFiles(featuresDir)) {
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(STATEMENT, (whole, keyword, typeOnly, braces, namespace, spec, sideSpec) => {
    const target = resolve(dirname(file), (spec ?? sideSpec).replace(/\.js$/, '.ts'));
    if (!existsSync(target) || !target.startsWith(`${featuresDir}/`)) return whole;
    const feature = featureOf(target);
    if (feature === featureOf(file) || relative(featuresDir, target) === `${feature}/index.ts`) return whole;
    const indexSpec = toSpecifier(file, join(featuresDir, feature, 'index.ts'));
    const entry = need(target);
    if (sideSpec) {
      entry.sideEffect = true;
      return `import '${indexSpec}';`;
    }
    if (namespace) {
      entry.namespace = namespaceAlias(target);
      return `${keyword}${typeOnly ?? ''} { ${entry.namespace} as ${namespace} } from '${indexSpec}';`;
    }
    for (const part of braces.slice(1, -1).split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0];
      if (!name) continue;
      if (typeOnly || /^type\s/.test(part.trim())) entry.types.add(name);
      else entry.values.add(name);
    }
    return `${keyword}${typeOnly ?? ''} ${braces} from '${indexSpec}';`;
  });
  if (rewritten !== text) writeFileSync(file, rewritten);
}

const clashes = [];
for (const [feature, files] of needs) {
  const indexPath = join(featuresDir, feature, 'index.ts');
  let index = existsSync(indexPath)
    ? readFileSync(indexPath, 'utf8')
    : `// What other features use of ${feature}.\n`;
  // name → the specifier it is exported from ('' when the index declares it itself)
  const exported = new Map();
  for (const m of index.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}(?:\s+from\s+'([^']+)')?/g)) {
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      if (name) exported.set(name, m[2] ?? '');
    }
  }
  for (const m of index.matchAll(/export\s+(?:async\s+)?(?:const|function|class|type|interface)\s+(\w+)/g))
    exported.set(m[1], '');
  for (const m of index.matchAll(/export\s+\*\s+as\s+(\w+)\s+from\s+'([^']+)'/g)) exported.set(m[1], m[2]);
  const lines = [];
  for (const [target, entry] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const spec = toSpecifier(indexPath, target);
    const fresh = (name) => {
      if (!exported.has(name)) return true;
      if (exported.get(name) !== spec)
        clashes.push(`${feature}: ${name} (${exported.get(name) || 'index.ts'}, ${spec})`);
      return false;
    };
    if (entry.sideEffect && !index.includes(`import '${spec}';`)) lines.push(`import '${spec}';`);
    if (entry.namespace && fresh(entry.namespace)) {
      lines.push(`export * as ${entry.namespace} from '${spec}';`);
      exported.set(entry.namespace, spec);
    }
    const values = [...entry.values].filter(fresh).sort();
    const types = [...entry.types]
      .filter((n) => !entry.values.has(n))
      .filter(fresh)
      .sort();
    if (values.length) lines.push(`export { ${values.join(', ')} } from '${spec}';`);
    if (types.length) lines.push(`export type { ${types.join(', ')} } from '${spec}';`);
    for (const n of [...values, ...types]) exported.set(n, spec);
  }
  if (lines.length) {
    index = `${index.trimEnd()}\n${lines.join('\n')}\n`;
    writeFileSync(indexPath, index);
  }
}
if (clashes.length) {
  console.error(`Exported by two files of one feature, rename one: ${clashes.join('; ')}`);
  process.exit(1);
}
