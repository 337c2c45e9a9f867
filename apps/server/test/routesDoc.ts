import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PERMISSIONS } from '@dossier/core';
import type { RouteEntry } from '../src/http/routeTable.js';
import { type Caller, EVERYONE, type Expectation, holders, MATRIX, SIGNED_IN } from './security/matrix.js';

// docs/ROUTES.md, written from the app's route table (http/routeTable.ts: method, path and the file
// that registered the route) and from who passes each route's authorization as the authorization
// matrix (security/matrix.ts) states it and matrix.test.ts checks it.

/** The matrix's `allow` of each route, as written in matrix.ts, by "METHOD /path" (and variant). */
export function matrixAllows(matrixSource: string): Map<string, string> {
  const allows = new Map<string, string>();
  for (const entry of matrixSource.matchAll(/^ {2}'((?:GET|POST|PUT|PATCH|DELETE) [^']+)':/gm)) {
    const value = balanced(matrixSource, entry.index! + entry[0].length);
    const parts: string[] = [];
    for (const expectation of value.matchAll(/(?:variant:\s*'([^']+)'[\s\S]*?)?allow:\s*/g)) {
      const expr = expression(value, expectation.index! + expectation[0].length);
      parts.push(expectation[1] ? `${expectation[1]}: ${readable(expr)}` : readable(expr));
    }
    if (parts.length) allows.set(entry[1]!, [...new Set(parts)].join('; '));
  }
  return allows;
}

/** The text of the value starting at `from`, up to the comma ending it at the top level. */
function balanced(text: string, from: number): string {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if ('{[('.includes(c!)) depth++;
    else if ('}])'.includes(c!)) depth--;
    if (depth === 0 && c === ',' && text.slice(from, i).trim()) return text.slice(from, i);
    if (depth < 0) return text.slice(from, i);
  }
  return text.slice(from);
}

function expression(text: string, from: number): string {
  return balanced(text, from).replace(/\s+/g, ' ').trim();
}

const NAMES: Record<string, string> = {
  EVERYONE: 'anyone',
  SIGNED_IN: 'signed in',
  SESSION_CALLERS: 'signed in',
  API_KEYS: 'API key',
  SCIM_CLIENT: 'a SCIM client (its token)',
  REQUEST_VIEWERS: 'viewers of the request',
  REQUEST_HANDLERS: 'handlers of the request',
  REQUEST_STAFF: 'staff of the request',
};

function readable(expr: string): string {
  if (expr === '[]') return 'nobody by session or key';
  return expr
    .replace(/\bacmeHolders\('([^']+)'\)/g, '`$1` at its scope')
    .replace(/\bholders\('([^']+)'\)/g, '`$1`')
    .replace(/\b[A-Z_]{4,}\b/g, (name) => NAMES[name] ?? name)
    .replace(/'(\w+)'/g, '$1');
}

/** Who passes a route the matrix builds in a loop (its source shows no literal entry). */
function evaluatedAllow(key: string): string | undefined {
  const entry = MATRIX[key];
  if (!entry) return undefined;
  const same = (a: readonly Caller[], b: readonly Caller[]) =>
    a.length === b.length && a.every((c) => b.includes(c));
  const describe = (allow: readonly Caller[]) => {
    if (allow.length === 0) return 'nobody by session or key';
    if (same(allow, EVERYONE)) return 'anyone';
    if (same(allow, SIGNED_IN)) return 'signed in';
    // Some permissions are held by the same roles: the one named like the path's first segment.
    const matching = PERMISSIONS.filter((p) => same(allow, holders(p)));
    const segment = key.split(' ')[1]!.split('/')[1]!;
    const permission = matching.find((p) => p.startsWith(segment)) ?? matching.join('` or `');
    return permission ? `\`${permission}\`` : allow.join(', ');
  };
  const list: Expectation[] = Array.isArray(entry) ? entry : [entry];
  return [...new Set(list.map((e) => (e.variant ? `${e.variant}: ` : '') + describe(e.allow)))].join('; ');
}

/** The folder of the file that registered a route: a feature, or a platform folder. */
function folderOf(source: string | undefined): string {
  if (!source) return '(a plugin)';
  const feature = /^features\/[^/]+/.exec(source);
  if (feature) return `\`${feature[0]}\``;
  return `\`${source.includes('/') ? source.split('/')[0] : source}\``;
}

export function routesDocument(routes: RouteEntry[], repoRoot: string): string {
  // The matrix as written: its callers (EXCLUDED among them) and its rows, in three files.
  const matrix = ['matrixCallers.ts', 'matrix.ts', 'matrixRequestRows.ts']
    .map((file) => readFileSync(join(repoRoot, 'apps/server/test/security', file), 'utf8'))
    .join('\n');
  const allows = matrixAllows(matrix);
  const excludedBlock = matrix.slice(matrix.indexOf('export const EXCLUDED'));
  const excluded = new Set(
    [...excludedBlock.slice(0, excludedBlock.indexOf('};')).matchAll(/^ {2}'([A-Z]+ [^']+)':/gm)].map(
      (m) => m[1],
    ),
  );
  const rows = [...routes]
    .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method))
    .map((r) => {
      const key = `${r.method} ${r.url}`;
      const who =
        allows.get(key) ??
        evaluatedAllow(key) ??
        (excluded.has(key) ? 'not in the matrix (see its EXCLUDED)' : '');
      return `| ${r.method} | \`${r.url.replace(/\|/g, '\\|')}\` | ${folderOf(r.source)} | ${who} |`;
    });
  return [
    '# Routes',
    '',
    'Generated by `npm run routes:doc` from the route table of the app (`apps/server/src/http/routeTable.ts`);',
    '`npm run routes:check` fails when this file is stale. Do not edit it by hand.',
    '',
    '"Who passes" is who gets past the route\'s authorization, as the authorization matrix',
    '(`apps/server/test/security/matrix.ts`) states it and `matrix.test.ts` checks it for every route: a',
    'permission in backticks is held in some scope of the caller, "at its scope" in the scope of the object',
    'the path names. Routes of the public API (`/api/v1`) take an API key; their API scopes are in the',
    'OpenAPI document (`GET /api/v1/openapi.json`).',
    '',
    `${routes.length} routes.`,
    '',
    '| method | path | registered in | who passes |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
