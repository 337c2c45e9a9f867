import {
  DASHBOARD_TILES,
  type DashboardTileName,
  type dashboardTileRoute,
  type RouteInput,
} from '@dossier/core';

// The dashboard's filters live in the address, so a view can be shared: the common ones (due,
// owner, the task type) by name, each tile's own (page offset, counts-table key) prefixed by the
// tile's name.

export const TILES = DASHBOARD_TILES;
export type Tile = DashboardTileName;

type TileQuery = NonNullable<RouteInput<typeof dashboardTileRoute>['query']>;

export interface DashboardFilters {
  due: string;
  owner: string;
  taskType: string;
  tiles: Record<Tile, { offset: number; key: string }>;
}

export function filtersFromAddress(search = window.location.search): DashboardFilters {
  const q = new URLSearchParams(search);
  const tiles = Object.fromEntries(
    TILES.map((t) => [
      t,
      { offset: Math.max(0, Number(q.get(`${t}.offset`)) || 0), key: q.get(`${t}.key`) ?? '' },
    ]),
  ) as DashboardFilters['tiles'];
  return {
    due: q.get('due') ?? '',
    owner: q.get('owner') ?? 'all',
    taskType: q.get('taskType') ?? '',
    tiles,
  };
}

export function writeAddress(filters: DashboardFilters): void {
  const q = new URLSearchParams();
  if (filters.due) q.set('due', filters.due);
  if (filters.owner && filters.owner !== 'all') q.set('owner', filters.owner);
  if (filters.taskType) q.set('taskType', filters.taskType);
  for (const t of TILES) {
    if (filters.tiles[t].offset > 0) q.set(`${t}.offset`, String(filters.tiles[t].offset));
    if (filters.tiles[t].key) q.set(`${t}.key`, filters.tiles[t].key);
  }
  const search = q.toString();
  window.history.replaceState(
    window.history.state,
    '',
    `${window.location.pathname}${search ? `?${search}` : ''}`,
  );
}

/** The query of GET /dashboard/{tile} for these filters. */
export function tileQuery(tile: Tile, filters: DashboardFilters, pageSize: number): TileQuery {
  const q: TileQuery = {
    pageOffset: filters.tiles[tile].offset,
    pageSize,
    owner: filters.owner || undefined,
  };
  if (tile === 'activeTasks') {
    if (filters.due) q.due = filters.due;
    if (filters.taskType) q['filter.taskType'] = filters.taskType;
  }
  if (filters.tiles[tile].key) q['filter.key'] = filters.tiles[tile].key;
  return q;
}

/**
 * The spec's summary line as a key and its values: none, all on one page (one or several), or a
 * page out of a total. A capped total is shown with a plus: there are more than counted.
 */
export function summaryOf(
  offset: number,
  shown: number,
  total: number,
  capped: boolean,
): { key: 'none' | 'one' | 'all' | 'page'; values: Record<string, string> } {
  const all = `${total.toLocaleString('en-AU')}${capped ? '+' : ''}`;
  if (shown === 0 && offset === 0) return { key: 'none', values: {} };
  if (offset === 0 && shown === total && !capped)
    return shown === 1 ? { key: 'one', values: {} } : { key: 'all', values: { 0: String(shown) } };
  return { key: 'page', values: { 0: String(offset + 1), 1: String(offset + shown), 2: all } };
}
