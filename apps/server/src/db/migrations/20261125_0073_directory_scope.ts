import { type Kysely, sql } from 'kysely';

// Recipients and payees belong to the scope they were created in, and only editors at that scope
// (or above it) change them: an administrator of one organisation may no longer change the bank
// account of a payee another organisation pays. Entries made before this belong to the root: they
// are shared, and only editors at the root change them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table recipients add column scope text not null default '/'`.execute(db);
  await sql`alter table payees add column scope text not null default '/'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table recipients drop column scope`.execute(db);
  await sql`alter table payees drop column scope`.execute(db);
}
