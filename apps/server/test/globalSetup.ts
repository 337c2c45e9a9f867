import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb, migrateToLatest } from '../src/db/database.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/db/embedded.js';

// Starts (or finds) the PostgreSQL server the integration tests use and prepares a migrated
// template database; each test file then gets its own copy of it (CREATE DATABASE ... TEMPLATE).
// TEST_DB=embedded (default) starts the embedded server in a temporary folder; TEST_DB=external
// uses TEST_EXTERNAL_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres.

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const mode = process.env.TEST_DB ?? 'embedded';
  let embedded: EmbeddedDatabase | undefined;
  let tempDir: string | undefined;
  let adminUrl: string;
  if (mode === 'external') {
    adminUrl = process.env.TEST_EXTERNAL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  } else {
    tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-test-'));
    embedded = await startEmbeddedPostgres(tempDir, { info: () => undefined, warn: console.warn });
    adminUrl = embedded.url.replace(/\/dossier$/, '/postgres');
  }
  const template = `dossier_tpl_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `create database "${template}"`);
  const { db } = createDb(withDatabase(adminUrl, template), 2);
  await migrateToLatest(db);
  await db.destroy();
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    await adminQuery(adminUrl, `drop database if exists "${template}" with (force)`).catch(() => undefined);
    await embedded?.stop();
    if (tempDir) await fs.rm(tempDir, { recursive: true, force: true }).catch(() => undefined);
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
