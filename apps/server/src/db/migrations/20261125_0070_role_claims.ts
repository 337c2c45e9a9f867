import { type Kysely, sql } from 'kysely';

// An external role a user adds to itself (at registration or on the account page) is a claim, not
// a grant: "I am the advisor with reference ADV-1001 at /org/acme/". It grants nothing until an
// administrator whose scope covers it approves it, when it becomes a row of user_roles. Keeping
// claims in a table of their own means every reader of user_roles sees granted roles only.
//
// External roles that self-registered accounts gave themselves before this migration were never
// verified: they become claims again (an administrator approves them once more). Roles of accounts
// an administrator created stay, since we cannot tell apart which of them the user added itself.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table role_claims (
      id bigserial primary key,
      user_id text not null references users (id) on delete cascade,
      role text not null,
      scope text not null,
      external_reference text,
      claimed_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index role_claims_unique_idx on role_claims (user_id, role, scope, coalesce(external_reference, ''))`.execute(
    db,
  );
  // Administrators list the claims waiting in their scopes, oldest first.
  await sql`create index role_claims_scope_idx on role_claims (scope text_pattern_ops, claimed_at)`.execute(
    db,
  );
  await sql`
    insert into role_claims (user_id, role, scope, external_reference, claimed_at)
    select r.user_id, r.role, r.scope, r.external_reference, now() from user_roles r
    where r.role = 'c:roles:external'
      and exists (select 1 from events e where e.type = 'accountRegistered' and e.aggregate_type = 'user' and e.aggregate_id = r.user_id)
    on conflict do nothing`.execute(db);
  await sql`
    delete from user_roles r
    where r.role = 'c:roles:external'
      and exists (select 1 from events e where e.type = 'accountRegistered' and e.aggregate_type = 'user' and e.aggregate_id = r.user_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table role_claims`.execute(db);
}
