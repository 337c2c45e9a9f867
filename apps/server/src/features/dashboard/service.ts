import {
  BUSINESS_TIME_ZONE,
  createBusinessCalendar,
  type DashboardTileAnswer,
  DUE_VALUES,
  dateInTimeZone,
  EXTERNAL_ROLE,
  isWithinScope,
  permissionsOfRole,
  ROLES,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import { type Actor, hasPermission, scopesWithPermission } from '../auth/index.js';
import { getPublicHolidays, listScopeEntries } from '../configuration/index.js';
import { staffScopes, visibleScopes } from '../requests/index.js';
import { localDateTime } from '../tasks/index.js';
import { DASHBOARD_TASK_TYPES, toDashboardItem } from './items.js';
import {
  COUNT_CAP,
  countTile,
  type DashboardTile,
  listRequestOwners,
  listRequestScopes,
  RESULT_STATES,
  readTilePage,
  type TileFilters,
} from './repository.js';

// GET /dashboard/{bind}: one tile's page, its counts table and the owners the
// owner filter offers. Every row and count is limited to the requests the actor may view.

export { DUE_VALUES };
export type Due = (typeof DUE_VALUES)[number];
export const SENDER_ACTION_REQUIRED = 'senderActionRequired';
const TIME_ZONE = BUSINESS_TIME_ZONE;

export interface DashboardQuery {
  pageOffset: number;
  pageSize: number;
  due?: Due | undefined;
  /** 'all', 'mine' or a user id of selectableOwners. */
  owner: string;
  /** Empty: every type but senderActionRequired; 'all': every type. */
  taskType?: string | undefined;
  requestStatus?: string | undefined;
  key?: string | undefined;
}

const nextDay = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

/**
 * The due window in the organisation's time zone. Today runs to the end of the local day and takes
 * in what is overdue; tomorrow is the next business day and the day after the one after it, each
 * window starting where the one before ends, so a task due over a weekend or a public holiday falls
 * into the business day that follows it rather than into none.
 */
export function dueWindow(due: Due, now: Date, holidays: readonly string[]): { from?: Date; before: Date } {
  const calendar = createBusinessCalendar(holidays);
  const today = dateInTimeZone(now, TIME_ZONE);
  const endOf = (date: string) => localDateTime(nextDay(date), '00:00', TIME_ZONE);
  const ends = [
    endOf(today),
    endOf(calendar.addBusinessDays(today, 1)),
    endOf(calendar.addBusinessDays(today, 2)),
  ] as const;
  if (due === 'today') return { before: ends[0] };
  if (due === 'tomorrow') return { from: ends[0], before: ends[1] };
  return { from: ends[1], before: ends[2] };
}

const SUBMITTING_ROLES = ROLES.filter((r) => permissionsOfRole(r).includes('request:submit'));

/** Users holding a submitting role inside the scopes where the actor sees requests (not as external). */
export function listSelectableOwners(db: DbOrTrx, actor: Actor) {
  const scopes = actor.roles
    .filter((r) => r.role !== EXTERNAL_ROLE && permissionsOfRole(r.role).includes('request:view'))
    .map((r) => r.scope);
  return listRequestOwners(db, SUBMITTING_ROLES, scopes);
}

async function ownerFilter(
  actor: Actor,
  owner: string,
  owners: { id: string }[],
): Promise<string | undefined> {
  if (owner === 'all') return undefined;
  if (owner === 'mine') {
    if (!hasPermission(actor, 'request:submit'))
      throw badRequest('Invalid filter.', { owner: 'Only submitters can show only their requests.' });
    return actor.id;
  }
  if (!owners.some((o) => o.id === owner))
    throw badRequest('Invalid filter.', { owner: 'Choose an owner from the list.' });
  return owner;
}

/** The keys of the tile's counts table, before counting. */
async function tileKeys(db: DbOrTrx, actor: Actor, tile: DashboardTile): Promise<string[]> {
  switch (tile) {
    case 'activeTasks':
      return [...DASHBOARD_TASK_TYPES];
    case 'correspondence':
      return ['issuedRequest', 'message', 'note'];
    case 'results':
      return [...RESULT_STATES];
    default: {
      // Only scopes the actor could see anything in: counting the others would read them in vain.
      const granted = scopesWithPermission(actor, 'request:view');
      const scopes = await listRequestScopes(db, tile === 'closedRequests');
      return scopes.filter((s) => granted.some((g) => isWithinScope(s, g)));
    }
  }
}

export async function getDashboardTile(
  db: DbOrTrx,
  actor: Actor,
  tile: DashboardTile,
  query: DashboardQuery,
  now = new Date(),
): Promise<DashboardTileAnswer> {
  const selectableOwners = await listSelectableOwners(db, actor);
  const filters: TileFilters = {
    visible: visibleScopes(actor),
    staff: staffScopes(actor),
    inboxScopes: scopesWithPermission(actor, 'inbox'),
    owner: await ownerFilter(actor, query.owner, selectableOwners),
    requestStatus: query.requestStatus,
  };
  if (tile === 'activeTasks' && query.due) {
    const window = dueWindow(query.due, now, await getPublicHolidays(db, actor.scope));
    filters.dueFrom = window.from;
    filters.dueBefore = window.before;
  }
  // The type filter's empty value leaves out what the sender has to do. It
  // holds for the counts table too: a key of the table narrows the list the type filter gives, so
  // each count is the number of rows its key lists (issue 22: the table counted the sender's
  // tasks the list left out).
  if (tile === 'activeTasks') {
    if (query.taskType === undefined) filters.excludeTaskType = SENDER_ACTION_REQUIRED;
    else if (query.taskType !== 'all') filters.taskType = query.taskType;
  }
  const keys = await tileKeys(db, actor, tile);
  if (query.key !== undefined && !keys.includes(query.key)) keys.push(query.key);

  const listed: TileFilters = { ...filters, key: query.key };
  const [rows, counts] = await Promise.all([
    readTilePage(db, tile, listed, query.pageOffset, query.pageSize),
    countTile(db, tile, listed, keys),
  ]);

  const scopeNames =
    tile === 'closedRequests' || tile === 'openRequests'
      ? new Map((await listScopeEntries(db)).map((s) => [s.scopePath, s.name]))
      : new Map<string, string>();
  return {
    items: rows.map((row) => toDashboardItem(tile, row, now)),
    total: Math.min(counts.total, COUNT_CAP),
    totalIsCapped: counts.total > COUNT_CAP,
    paging: { offset: query.pageOffset, size: query.pageSize },
    aggregations: counts.keys
      .filter((c) => c.count > 0 || c.key === query.key)
      .map((c) => ({
        key: c.key,
        count: Math.min(c.count, COUNT_CAP),
        isCapped: c.count > COUNT_CAP,
        ...(scopeNames.has(c.key) ? { name: scopeNames.get(c.key) } : {}),
      })),
    selectableOwners,
  };
}
