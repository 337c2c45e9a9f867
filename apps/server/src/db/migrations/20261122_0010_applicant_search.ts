import { type Kysely, sql } from 'kysely';

// The wizard's applicant search looks through an organisation's earlier requests by name (the
// trigram index of 0009), by date of birth and by reference. These two indexes keep the last two
// lookups from scanning the requests table.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index requests_applicant_dob_idx on requests (applicant_date_of_birth, scope text_pattern_ops)`.execute(
    db,
  );
  await sql`create index requests_applicant_reference_idx on requests (lower(applicant ->> 'reference1') text_pattern_ops)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists requests_applicant_reference_idx`.execute(db);
  await sql`drop index if exists requests_applicant_dob_idx`.execute(db);
}
