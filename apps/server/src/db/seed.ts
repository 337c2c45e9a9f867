import { randomBytes } from 'node:crypto';
import { TRAINABLE_TASK_TYPES } from '@dossier/core';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { hashPassword } from '../features/auth/passwords.js';
import type { Db, DbOrTrx } from './database.js';
import { seedAccounts } from './seedAccounts.js';
import { seedConfiguration } from './seedConfiguration.js';
import { seedDemoRequests } from './seedRequests.js';

// An empty database gets the administrator 'admin', and unless SEED_DEMO=false a small demo: the
// records-retrieval service itself at /org/dossier/, two sender organisations, and one user of each
// role. Their passwords are printed once; keep them or set ADMIN_PASSWORD / DEMO_PASSWORD.

export interface SeededUser {
  id: string;
  role: string;
  password: string;
}

interface DemoUser {
  id: string;
  name: string;
  email: string;
  phone: string;
  scope: string;
  roles: { role: string; scope: string; externalReference?: string }[];
}

const DEMO_USERS: DemoUser[] = [
  {
    id: 'manager',
    name: 'Morgan Manager',
    email: 'manager@dossier.example',
    phone: '+61290000001',
    scope: '/org/dossier/',
    roles: [{ role: 'c:roles:manager', scope: '/' }],
  },
  {
    id: 'handler',
    name: 'Harper Handler',
    email: 'handler@dossier.example',
    phone: '+61290000002',
    scope: '/org/dossier/',
    roles: [{ role: 'c:roles:handler', scope: '/' }],
  },
  {
    id: 'submitter',
    name: 'Sam Submitter',
    email: 'sam@acme.example',
    phone: '+61290000003',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  },
  {
    id: 'globex',
    name: 'Gale Globex',
    email: 'gale@globex.example',
    phone: '+61290000004',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  },
  {
    id: 'advisor',
    name: 'Alex Advisor',
    email: 'alex@advisors.example',
    phone: '+61412000005',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:external', scope: '/org/acme/', externalReference: 'ADV-1001' }],
  },
];

/** A random password that meets the default policy (upper, lower, digit and symbol, 16+ long). */
export function generatePassword(): string {
  return `${randomBytes(12).toString('base64url')}Aa1!`;
}

async function insertUser(db: DbOrTrx, user: DemoUser, password: string): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      name: user.name,
      email: user.email,
      phone: user.phone,
      scope: user.scope,
      country: 'AU',
      language: 'en-au',
      password_hash: await hashPassword(password),
      email_confirmed_at: new Date(),
    })
    .execute();
  await db
    .insertInto('user_roles')
    .values(
      user.roles.map((r) => ({
        user_id: user.id,
        role: r.role,
        scope: r.scope,
        external_reference: r.externalReference ?? null,
      })),
    )
    .execute();
}

/** Seeds an empty database; answers the users it made, with their passwords, to be printed once. */
export async function seedIfEmpty(db: Db, config: Config): Promise<SeededUser[]> {
  return db.transaction().execute(async (trx) => {
    // One instance seeds; another starting at the same moment waits here and then finds users.
    await sql`select pg_advisory_xact_lock(727272)`.execute(trx);
    // The product needs a root configuration, demo or not (and an older database gets one too).
    // The demo's requires a second factor of administrators: health records ask for no less, and the
    // demo shows what that means (the first sign-in of `admin` enrols a code generator).
    await seedConfiguration(trx, { demo: config.seedDemo, secondFactorForAdministrators: config.seedDemo });
    const any = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (any) return [];
    const seeded: SeededUser[] = [];
    const adminPassword = config.adminPassword ?? generatePassword();
    await insertUser(
      trx,
      {
        id: 'admin',
        name: 'Administrator',
        email: 'admin@dossier.example',
        phone: '+61290000000',
        scope: '/',
        roles: [{ role: 'c:roles:admin', scope: '/' }],
      },
      adminPassword,
    );
    seeded.push({ id: 'admin', role: 'c:roles:admin@/', password: adminPassword });
    if (!config.seedDemo) return seeded;
    for (const user of DEMO_USERS) {
      const password = config.demoPassword ?? generatePassword();
      await insertUser(trx, user, password);
      // Every demo user is declared with at least one role.
      const role = user.roles[0]!;
      seeded.push({ id: user.id, role: `${role.role}@${role.scope}`, password });
    }
    // The demo handler is trained and active for every trainable task type, so workflow tasks
    // (the seeded requests' issueRequest tasks first) reach someone.
    await trx
      .insertInto('task_skills')
      .values(
        TRAINABLE_TASK_TYPES.map((t) => ({
          user_id: 'handler',
          task_type: t,
          level: 'trained',
          status: 'active',
        })),
      )
      .execute();
    await seedAccounts(trx);
    await seedDemoRequests(trx, config);
    return seeded;
  });
}
