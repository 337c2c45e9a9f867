import fs from 'node:fs';
import path from 'node:path';

// Reads the hand-kept Kysely table types (src/db/schema.ts and the files it imports) as text, so
// the schema test can compare them with the columns the migrations create. The files keep a plain
// shape (`export interface XTable { column: Type; }`), which a small parser reads; the TypeScript
// compiler in use (tsgo) has no JavaScript API to do it.

/** What the database gives for a column, broadly: enough to catch a wrong or missing column. */
export type BroadType = 'string' | 'number' | 'boolean' | 'date' | 'array' | 'json';

export interface ModelColumn {
  nullable: boolean;
  /** The broad types the select type allows (a union may allow several). */
  types: Set<BroadType>;
  /** Generated<...> or an insert type that may be left out: the database must fill it. */
  generated: boolean;
}

export type Model = Map<string, Map<string, ModelColumn>>;

const DB_DIR = path.join(import.meta.dirname, '../../src/db');
const FILES = ['schema.ts', 'schemaRequests.ts', 'schemaCounts.ts', 'schemaSignIn.ts', 'schemaDirectory.ts'];
/** The column type aliases (Timestamp, Bigint, ...) the table files use. */
const ALIASES = 'schemaTypes.ts';

const aliases = new Map<string, string>();

export function readSchemaModel(): Model {
  const aliasText = stripComments(fs.readFileSync(path.join(DB_DIR, ALIASES), 'utf8'));
  for (const m of aliasText.matchAll(/export type (\w+) = ([^;]+);/g)) {
    aliases.set(m[1] ?? '', (m[2] ?? '').replace(/\s+/g, ' ').trim());
  }
  const interfaces = new Map<string, string>();
  for (const file of FILES) {
    const text = stripComments(fs.readFileSync(path.join(DB_DIR, file), 'utf8'));
    for (const m of text.matchAll(/export interface (\w+)\s*\{/g)) {
      const start = (m.index ?? 0) + m[0].length;
      interfaces.set(m[1] ?? '', text.slice(start, closingBrace(text, start)));
    }
  }
  const database = interfaces.get('Database');
  if (!database) throw new Error('schema.ts has no Database interface');
  const model: Model = new Map();
  for (const [table, tableType] of members(database)) {
    const body = interfaces.get(tableType);
    if (!body) throw new Error(`Database.${table}: interface ${tableType} not found`);
    model.set(table, new Map(members(body).map(([column, type]) => [column, describe(type)])));
  }
  return model;
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}

function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error('unbalanced braces in the schema files');
}

/** `name: Type;` pairs of an interface body, split at the top level only. */
function members(body: string): [string, string][] {
  return splitTop(body, ';')
    .map((m) => m.trim())
    .filter(Boolean)
    .map((m) => {
      const colon = m.indexOf(':');
      return [m.slice(0, colon).trim().replace(/\?$/, ''), m.slice(colon + 1).trim()];
    });
}

/** Splits at a separator outside <>, (), [] and {}. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<' || c === '(' || c === '[' || c === '{') depth++;
    else if ((c === '>' && text[i - 1] !== '=') || c === ')' || c === ']' || c === '}') depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function typeArguments(type: string, name: string): string[] | undefined {
  if (!type.startsWith(`${name}<`) || !type.endsWith('>')) return undefined;
  return splitTop(type.slice(name.length + 1, -1), ',').map((a) => a.trim());
}

function describe(type: string): ModelColumn {
  const generated = typeArguments(type, 'Generated');
  if (generated) return { ...describe(generated[0] ?? ''), generated: true };
  const alias = aliases.get(type);
  if (alias) return describe(alias);
  const json = typeArguments(type, 'JSONColumnType') ?? typeArguments(type, 'JsonColumn');
  if (json) {
    const select = splitTop(json[0] ?? '', '|').map((t) => t.trim());
    const insert = splitTop(json[1] ?? 'string', '|').map((t) => t.trim());
    return {
      nullable: select.includes('null'),
      types: new Set(['json']),
      generated: insert.includes('undefined'),
    };
  }
  const column = typeArguments(type, 'ColumnType');
  const select = splitTop(column?.[0] ?? type, '|').map((t) => t.trim());
  const insert = column ? splitTop(column[1] ?? '', '|').map((t) => t.trim()) : [];
  const types = new Set<BroadType>();
  for (const t of select) {
    if (t === 'null') continue;
    if (t === 'string' || /^'.*'$/.test(t)) types.add('string');
    else if (t === 'number') types.add('number');
    else if (t === 'boolean') types.add('boolean');
    else if (t === 'Date') types.add('date');
    else if (t.endsWith('[]')) types.add('array');
    else types.add('json');
  }
  return { nullable: select.includes('null'), types, generated: insert.includes('undefined') };
}
