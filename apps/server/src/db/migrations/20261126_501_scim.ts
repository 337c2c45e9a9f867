import { type Kysely, sql } from 'kysely';

// SCIM provisioning (issue 17). A SCIM client is a configuration entry; its bearer token lives here
// as a SHA-256 only (it is 32 random bytes, so a fast hash is enough), one per entry. Users keep the
// provider's userName and externalId beside the external user id that single sign-on matches, and
// who set that id. Groups are the provider's; the roles they grant are remembered per group, so a
// change of membership removes exactly those, never a role an administrator granted by hand.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table scim_tokens (
    configuration_id text not null references configurations (id) on delete cascade,
    entry_id text not null,
    token_hash text not null unique,
    hint text not null,
    created_by text,
    created_at timestamptz not null default now(),
    last_used_at timestamptz,
    primary key (configuration_id, entry_id)
  )`.execute(db);
  await sql`alter table users
    add column scim_user_name text,
    add column scim_external_id text,
    add column scim_client text,
    add column external_id_set_by text,
    add column scim_deleted_at timestamptz`.execute(db);
  await sql`create unique index users_scim_user_name_key on users (lower(scim_user_name)) where scim_user_name is not null`.execute(
    db,
  );
  await sql`create table scim_groups (
    id uuid primary key default gen_random_uuid(),
    client text not null,
    scope text not null,
    display_name text not null,
    external_id text,
    version integer not null default 1,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create unique index scim_groups_name_key on scim_groups (client, lower(display_name))`.execute(
    db,
  );
  await sql`create table scim_group_members (
    group_id uuid not null references scim_groups (id) on delete cascade,
    user_id text not null references users (id) on delete cascade,
    primary key (group_id, user_id)
  )`.execute(db);
  await sql`create index scim_group_members_user_idx on scim_group_members (user_id)`.execute(db);
  await sql`create table scim_role_grants (
    group_id uuid not null references scim_groups (id) on delete cascade,
    user_id text not null references users (id) on delete cascade,
    role text not null,
    scope text not null,
    primary key (group_id, user_id, role, scope)
  )`.execute(db);
  await sql`create index scim_role_grants_user_idx on scim_role_grants (user_id, role, scope)`.execute(db);
  // A role row made for a group (not by an administrator): only such rows are ever removed by SCIM.
  await sql`alter table user_roles add column granted_by_scim boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_roles drop column granted_by_scim`.execute(db);
  await sql`drop table scim_role_grants`.execute(db);
  await sql`drop table scim_group_members`.execute(db);
  await sql`drop table scim_groups`.execute(db);
  await sql`drop index users_scim_user_name_key`.execute(db);
  await sql`alter table users drop column scim_user_name, drop column scim_external_id, drop column scim_client, drop column external_id_set_by, drop column scim_deleted_at`.execute(
    db,
  );
  await sql`drop table scim_tokens`.execute(db);
}
