import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase } from './helpers.js';
import { type BroadType, type ModelColumn, readSchemaModel } from './support/schemaModel.js';

// Columns a BEFORE INSERT trigger fills, so an insert leaves them out though they have no default:
// an invoice's scope is its request's (migration 20261127_6003_invoice_scope).
const FILLED_BY_TRIGGERS = new Set(['request_invoices.scope', 'requests.content_search']);

// src/db/schema.ts is kept by hand next to the migrations; this test migrates an empty database
// (the test template) and compares every table's columns with it: name, nullability, broad type,
// and that a column the types let an insert leave out has a default. `npm run db:schema-check`
// runs this file alone.

interface DbColumn {
  table_name: string;
  column_name: string;
  is_nullable: 'YES' | 'NO';
  data_type: string;
  column_default: string | null;
  is_identity: 'YES' | 'NO';
  is_generated: 'ALWAYS' | 'NEVER';
}

/** Tables of the tooling, not of the application. */
const NOT_IN_MODEL = new Set(['kysely_migration', 'kysely_migration_lock']);

/** What node-postgres hands back for a PostgreSQL type (bigint as text: see src/db/database.ts). */
function broadTypes(dataType: string): BroadType[] {
  switch (dataType) {
    case 'text':
    case 'character varying':
    case 'character':
    case 'uuid':
    case 'inet':
    case 'cidr':
    case 'tsvector':
      return ['string'];
    case 'bigint':
    case 'numeric':
      return ['string'];
    case 'integer':
    case 'smallint':
    case 'real':
    case 'double precision':
      return ['number'];
    case 'boolean':
      return ['boolean'];
    case 'timestamp with time zone':
    case 'timestamp without time zone':
    case 'date':
      return ['date'];
    case 'jsonb':
    case 'json':
      return ['json'];
    case 'ARRAY':
      return ['array'];
    default:
      return [dataType as BroadType];
  }
}

export function compare(columns: DbColumn[], model: Map<string, Map<string, ModelColumn>>): string[] {
  const differences: string[] = [];
  const byTable = new Map<string, DbColumn[]>();
  for (const c of columns) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c]);
  for (const table of byTable.keys()) {
    if (!model.has(table) && !NOT_IN_MODEL.has(table))
      differences.push(`${table}: table missing in schema.ts`);
  }
  for (const [table, modelColumns] of model) {
    const dbColumns = byTable.get(table);
    if (!dbColumns) {
      differences.push(`${table}: in schema.ts but no such table after the migrations`);
      continue;
    }
    for (const c of dbColumns) {
      const where = `${table}.${c.column_name}`;
      const m = modelColumns.get(c.column_name);
      if (!m) {
        differences.push(`${where}: column missing in schema.ts (${c.data_type})`);
        continue;
      }
      const nullable = c.is_nullable === 'YES';
      if (m.nullable !== nullable) {
        differences.push(
          `${where}: ${nullable ? 'nullable' : 'not null'} in the database, ${m.nullable ? 'nullable' : 'not null'} in schema.ts`,
        );
      }
      const expected = broadTypes(c.data_type);
      const wrong = [...m.types].filter(
        (t) => !expected.includes(t) && !(t === 'number' && c.data_type === 'numeric'),
      );
      if (wrong.length > 0 || m.types.size === 0) {
        differences.push(
          `${where}: ${c.data_type} (${expected.join(' | ')}) in the database, ${[...m.types].join(' | ') || 'nothing'} in schema.ts`,
        );
      }
      const hasDefault =
        c.column_default !== null ||
        c.is_identity === 'YES' ||
        c.is_generated === 'ALWAYS' ||
        FILLED_BY_TRIGGERS.has(`${c.table_name}.${c.column_name}`);
      if (m.generated && !hasDefault && !nullable) {
        differences.push(`${where}: schema.ts lets an insert leave it out, but it has no default`);
      }
    }
    const inDb = new Set(dbColumns.map((c) => c.column_name));
    for (const column of modelColumns.keys()) {
      if (!inDb.has(column)) differences.push(`${table}.${column}: in schema.ts but not in the database`);
    }
  }
  return differences;
}

let url: string;
let client: pg.Client;

beforeAll(async () => {
  url = await createTestDatabase();
  client = new pg.Client({ connectionString: url });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await dropTestDatabase(url);
});

describe('schema.ts', () => {
  it('matches the columns the migrations create', async () => {
    const { rows } = await client.query<DbColumn>(
      `select c.table_name, c.column_name, c.is_nullable, c.data_type, c.column_default, c.is_identity, c.is_generated
         from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
          -- A partition (the access log's months) has its parent's columns; the parent is compared.
          and not exists (select 1 from pg_class p join pg_namespace n on n.oid = p.relnamespace
            where n.nspname = c.table_schema and p.relname = c.table_name and p.relispartition)
        order by c.table_name, c.ordinal_position`,
    );
    expect(compare(rows, readSchemaModel())).toEqual([]);
  });

  it('reports a drifted column', () => {
    const column = (over: Partial<DbColumn>): DbColumn => ({
      table_name: 'things',
      column_name: 'name',
      is_nullable: 'NO',
      data_type: 'text',
      column_default: null,
      is_identity: 'NO',
      is_generated: 'NEVER',
      ...over,
    });
    const model = new Map([
      [
        'things',
        new Map<string, ModelColumn>([
          ['name', { nullable: false, types: new Set(['string']), generated: false }],
          ['size', { nullable: false, types: new Set(['number']), generated: true }],
          ['gone', { nullable: false, types: new Set(['string']), generated: false }],
        ]),
      ],
    ]);
    expect(
      compare(
        [
          column({ is_nullable: 'YES' }),
          column({ column_name: 'size', data_type: 'integer' }),
          column({ column_name: 'extra', data_type: 'jsonb' }),
        ],
        model,
      ),
    ).toEqual([
      'things.name: nullable in the database, not null in schema.ts',
      'things.size: schema.ts lets an insert leave it out, but it has no default',
      'things.extra: column missing in schema.ts (jsonb)',
      'things.gone: in schema.ts but not in the database',
    ]);
  });
});
