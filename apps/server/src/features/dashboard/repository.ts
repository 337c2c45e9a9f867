import {
  DASHBOARD_COUNT_CAP,
  DASHBOARD_TILES,
  type DashboardTileName,
  SENDER_TASK_TYPES,
} from '@dossier/core';
import { type Expression, type RawBuilder, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { scopeAtOrUnder } from '../../db/scopes.js';
import { likeStartsWith } from '../../db/search.js';
import { fileDeniedToSender, type staffScopes, type visibleScopes } from '../requests/index.js';

// All SQL of the dashboard tiles. Each tile is a base set (active tasks, correspondence of requests
// not closed, results neither discarded nor downloaded, closed requests, requests not closed), and
// the visibility filter of requests/policy.ts applies to every row and count. Tasks, correspondence
// and results are filtered by the copy each keeps of its request's status, scope, external
// references and owners (request_status, request_scope, …, migration 8001), so their counts read
// no request: only the page joins requests, for the applicant's name. The page is read in the
// tile's order through a partial index (migrations 0017, 8001). Counts are per key of the tile's
// counts table, each stopping at COUNT_CAP: exact counts of broad sets over a million requests cost
// more than the whole dashboard may (measured in bench/cases/dashboard.ts), so the answer says when
// a count was cut and the page shows it as "1,000+".

export const COUNT_CAP = DASHBOARD_COUNT_CAP;

export { DASHBOARD_TILES };
export type DashboardTile = DashboardTileName;

export interface TileFilters {
  visible: ReturnType<typeof visibleScopes>;
  /** The requests the actor is staff of: only there are results awaiting quality assurance shown. */
  staff: ReturnType<typeof staffScopes>;
  /** Scopes whose inbox the actor works: tasks of a message without a request are shown there. */
  inboxScopes: string[];
  /** Requests submitted by or on behalf of this user only. */
  owner?: string | undefined;
  /** Active tasks due in [dueFrom, dueBefore). */
  dueFrom?: Date | undefined;
  dueBefore?: Date | undefined;
  /** Active tasks: one type, or every type but this one. */
  taskType?: string | undefined;
  excludeTaskType?: string | undefined;
  requestStatus?: string | undefined;
  /** A key of the tile's counts table. */
  key?: string | undefined;
}

type Fragment = RawBuilder<unknown> | Expression<unknown>;

export const RESULT_STATES = ['awaitingQa', 'qualityAssured', 'qaSkipped'] as const;
/** The result state as the counts table names it; written exactly as in the index of migration 8001. */
const RESULT_STATE = sql`(case when r.quality_assured_at is not null then 'qualityAssured'
            when r.quality_assurance_skipped then 'qaSkipped' else 'awaitingQa' end)`;

interface TileSql {
  from: RawBuilder<unknown>;
  /** Joins only the page needs (the request's applicant, names of people, files): left out of the
   * counts, which then read the rows from their index alone. */
  display: RawBuilder<unknown>;
  where: Fragment[];
  key: RawBuilder<unknown>;
  order: RawBuilder<unknown>;
  columns: RawBuilder<unknown>;
  /** Every key there is, when each row has one of them: the total is then the keys' sum. */
  everyKey?: readonly string[];
}

/** A request's columns as a tile reads them: `requests.<column>`, or a row's kept `x.request_<column>`. */
type RequestColumn = (column: string) => RawBuilder<unknown>;
const ofRequests: RequestColumn = (column) => sql.ref(`requests.${column}`);
const keptBy =
  (alias: string): RequestColumn =>
  (column) =>
    sql.ref(`${alias}.request_${column}`);

function visibleRequest(f: TileFilters, request: RequestColumn): RawBuilder<unknown> {
  return f.visible({ scope: request('scope'), externalUserReferences: request('external_user_references') });
}

function staffRequest(f: TileFilters, request: RequestColumn): RawBuilder<unknown> {
  return f.staff(request('scope'));
}

/** Conditions on the request that every tile shares: owner and request status. */
function requestConditions(f: TileFilters, request: RequestColumn): Fragment[] {
  const where: Fragment[] = [];
  if (f.owner)
    where.push(
      sql`(${request('submitted_by')} = ${f.owner} or ${request('submitted_on_behalf_of')} = ${f.owner})`,
    );
  if (f.requestStatus) where.push(sql`${request('status')} = ${f.requestStatus}`);
  return where;
}

function tileSql(tile: DashboardTile, f: TileFilters): TileSql {
  switch (tile) {
    case 'activeTasks': {
      const request = keptBy('t');
      // A task of an inbox message has no request: it is seen by those who work that scope's inbox,
      // and never under an owner or request-status filter (it has neither).
      const inbox =
        f.inboxScopes.length === 0 || f.owner || f.requestStatus
          ? sql`false`
          : sql`(t.request_number is null and (${sql.join(
              f.inboxScopes.map((s) => scopeAtOrUnder(sql.ref('t.scope'), s)),
              sql` or `,
            )}))`;
      // The sender side sees its own tasks only, and sees them under the default type filter too:
      // that filter leaves the sender's tasks out of staff lists, not out of the sender's own
      // (senderVisibility.ts in @dossier/core).
      const senderTypes = sql.join([...SENDER_TASK_TYPES].map((type) => sql`${type}`));
      const ownTask = sql`(${staffRequest(f, request)} or t.type in (${senderTypes}))`;
      // A kept scope means the task's request exists (tasks have no foreign key to requests).
      const onRequest = sql`(t.request_scope is not null and ${visibleRequest(f, request)} and ${ownTask}${sql.join(
        requestConditions(f, request).map((c) => sql` and ${c}`),
        sql``,
      )})`;
      const where: Fragment[] = [sql`t.completed_at is null`, sql`(${onRequest} or ${inbox})`];
      if (f.dueFrom) where.push(sql`t.due_at >= ${f.dueFrom}`);
      if (f.dueBefore) where.push(sql`t.due_at < ${f.dueBefore}`);
      if (f.taskType) where.push(sql`t.type = ${f.taskType}`);
      if (f.excludeTaskType)
        where.push(
          sql`(t.type <> ${f.excludeTaskType} or t.request_scope is not null and not ${staffRequest(f, request)})`,
        );
      return {
        from: sql`tasks t`,
        display: sql`left join requests on requests.request_number = t.request_number
          left join users au on au.id = t.assigned_to`,
        where,
        key: sql`t.type`,
        order: sql`t.due_at, t.id`,
        columns: sql`t.id::text as id, t.type, t.subject, t.request_number, t.message_id, t.triggered_at,
          t.due_at, t.marked_in_progress_at, t.assigned_to, au.name as assigned_to_name,
          requests.applicant_name`,
      };
    }
    case 'correspondence': {
      const request = keptBy('c');
      return {
        from: sql`correspondence c`,
        display: sql`join requests on requests.request_number = c.request_number
          left join users cu on cu.id = c.created_by`,
        where: [
          // Written as the partial indexes of migration 8001 are.
          sql`c.request_status <> 'closed'`,
          visibleRequest(f, request),
          // A message with an unverified sender is staff's until accepted (correspondence/list.ts).
          sql`(not c.unverified_sender or ${staffRequest(f, request)})`,
          ...requestConditions(f, request),
        ],
        key: sql`c.kind`,
        order: sql`c.created_at desc, c.id`,
        columns: sql`c.id::text as id, c.kind, c.request_number, c.subject, c.is_urgent_note,
          c.issue_request_method, c.message_delivery_status, c.created_at, cu.name as created_by_name,
          requests.applicant_name`,
      };
    }
    case 'results': {
      const request = keptBy('r');
      return {
        from: sql`request_results r`,
        display: sql`join requests on requests.request_number = r.request_number
          left join files fi on fi.key = r.file_key`,
        where: [
          sql`r.discarded_at is null`,
          sql`r.downloaded_at is null`,
          visibleRequest(f, request),
          // Results reach the sender side only after quality assurance (results/list.ts).
          sql`(${RESULT_STATE} <> 'awaitingQa' or ${staffRequest(f, request)})`,
          // Nor a result whose file has a use that denies it (also an invoice): senderMayReadFile.
          sql`(${staffRequest(f, request)} or not ${fileDeniedToSender(sql.ref('r.request_number'), sql.ref('r.file_key'))})`,
          ...requestConditions(f, request),
        ],
        key: RESULT_STATE,
        everyKey: RESULT_STATES,
        order: sql`r.created_at desc, r.id`,
        columns: sql`r.id::text as id, ${RESULT_STATE} as state, r.request_number, r.created_at,
          r.quality_assured_at, fi.name as file_name, requests.applicant_name`,
      };
    }
    case 'closedRequests':
    case 'openRequests': {
      const closed = tile === 'closedRequests';
      return {
        from: sql`requests`,
        display: sql``,
        where: [
          closed ? sql`requests.status = 'closed'` : sql`requests.status <> 'closed'`,
          visibleRequest(f, ofRequests),
          ...requestConditions(f, ofRequests),
        ],
        key: sql`requests.scope`,
        order: closed
          ? sql`requests.closed_at desc, requests.request_number`
          : sql`requests.submitted_at desc, requests.request_number`,
        columns: sql`requests.request_number as id, requests.request_number, requests.scope, requests.status,
          requests.applicant_name, requests.recipient_name, requests.submitted_at, requests.closed_at,
          requests.last_activity_at`,
      };
    }
  }
}

const where = (parts: Fragment[]) => sql.join(parts, sql` and `);

export interface TileRow {
  id: string;
  request_number: string | null;
  applicant_name: string | null;
  [column: string]: unknown;
}

/** One page of the tile in its order, the key filter applied. */
export async function readTilePage(
  db: DbOrTrx,
  tile: DashboardTile,
  filters: TileFilters,
  offset: number,
  limit: number,
): Promise<TileRow[]> {
  const t = tileSql(tile, filters);
  const parts = filters.key === undefined ? t.where : [...t.where, sql`${t.key} = ${filters.key}`];
  const result = await sql<TileRow>`select ${t.columns} from ${t.from} ${t.display} where ${where(parts)}
    order by ${t.order} offset ${offset} limit ${limit}`.execute(db);
  return result.rows;
}

/**
 * The tile's total and the count of each key, each stopping at COUNT_CAP + 1, in one statement of
 * one scalar subquery each. The total is counted with the very filter readTilePage lists with (the
 * key included), so a count never disagrees with its list; the keys are counted with that filter
 * but for the key (the table offers the others too). The keys are values, not a joined list, so
 * the planner sees each one: given an unnest of keys it planned for a generic key, chose a
 * sequential scan of the tasks (300 ms for a type with no task, on 1M requests) or sorted all
 * 65,000 results of a state; given the value it reads the (key, order) index of the tile.
 * Where every row has one of the keys (the result states) and all are counted, the total is their
 * sum (above the cap exactly when the true total is): counted on its own, the planner read pending
 * results from the table's start, where old results are all downloaded (3,200 buffers).
 */
export async function countTile(
  db: DbOrTrx,
  tile: DashboardTile,
  filters: TileFilters,
  keys: readonly string[],
): Promise<{ total: number; keys: { key: string; count: number }[] }> {
  const t = tileSql(tile, { ...filters, key: undefined });
  const capped = (parts: Fragment[], name: string) =>
    sql`(select count(*) from (select 1 from ${t.from} where ${where(parts)}
        limit ${COUNT_CAP + 1}) s) as ${sql.ref(name)}`;
  const totalWhere = filters.key === undefined ? t.where : [...t.where, sql`${t.key} = ${filters.key}`];
  const summed = filters.key === undefined && t.everyKey?.every((k) => keys.includes(k)) === true;
  const counts = [
    ...(summed ? [] : [capped(totalWhere, 'total')]),
    ...keys.map((key, i) => capped([...t.where, sql`${t.key} = ${key}`], `n${i}`)),
  ];
  const result = await sql<Record<string, string>>`select ${sql.join(counts)}`.execute(db);
  const row = result.rows[0]!; // a select without from answers exactly one row
  const keyCounts = keys.map((key, i) => ({ key, count: Number(row[`n${i}`]) }));
  return {
    total: summed ? keyCounts.reduce((n, k) => n + k.count, 0) : Number(row.total),
    keys: keyCounts,
  };
}

/**
 * The scopes that have closed (or not closed) requests, by a skip scan over the scope index of
 * migration 0017: one index probe per scope instead of reading every request.
 */
export async function listRequestScopes(db: DbOrTrx, closed: boolean, limit = 200): Promise<string[]> {
  const status = closed ? sql`status = 'closed'` : sql`status <> 'closed'`;
  const result = await sql<{ scope: string }>`with recursive s(scope) as (
      (select scope from requests where ${status} order by scope limit 1)
      union all
      select (select r.scope from requests r where r.${sql.raw(closed ? "status = 'closed'" : "status <> 'closed'")}
        and r.scope > s.scope order by r.scope limit 1)
      from s where s.scope is not null
    ) select scope from s where scope is not null limit ${limit}`.execute(db);
  return result.rows.map((r) => r.scope);
}

/**
 * Users who may own requests the actor sees: those holding a role (within the given scopes) whose
 * permissions include submitting; the caller passes the role names that do.
 */
export async function listRequestOwners(
  db: DbOrTrx,
  roles: string[],
  withinScopes: string[],
  limit = 200,
): Promise<{ id: string; name: string }[]> {
  if (roles.length === 0 || withinScopes.length === 0) return [];
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.name'])
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('user_roles as ur')
          .select('ur.id')
          .whereRef('ur.user_id', '=', 'u.id')
          .where('ur.role', 'in', roles)
          .where((eb) => eb.or(withinScopes.map((s) => eb('ur.scope', 'like', likeStartsWith(s))))),
      ),
    )
    .orderBy('u.name')
    .orderBy('u.id')
    .limit(limit)
    .execute();
}
