import {
  type DashboardTileAnswer,
  type DashboardView,
  dashboardTileRoute,
  WORKFLOW_TASK_TYPES,
} from '@dossier/core';
import { Container, Group, Select, SimpleGrid, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { followTopic, onLiveReconnected } from '../../shell/liveChanges';
import { useServices } from '../../shell/ServicesContext';
import { followChanges } from '../../view/follow';
import { definePage } from '../../view/page';
import {
  type DashboardFilters,
  filtersFromAddress,
  TILES,
  type Tile,
  tileQuery,
  writeAddress,
} from './address';
import { DashboardTile } from './DashboardTile';

const PAGE_SIZE = 10;
/**
 * Every request change anywhere reaches every open dashboard, so tiles load again at most once in
 * two seconds however busy the requests are, and not at all while the tab is hidden (once it shows).
 * The first change after a quiet spell loads at once (a burst of one action's events is one load),
 * so the tiles follow a change within two seconds.
 */
const LIVE_MIN_INTERVAL_MS = 2000;

/**
 * /dashboard: the due, owner and task type filters over five tiles, each loaded from
 * GET /dashboard/{tile}. Every filter is written to the address; a load error goes to the view's
 * error area.
 */
export const DashboardPage = definePage<DashboardView>(({ view }) => {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const [filters, setFilters] = useState<DashboardFilters>(() => filtersFromAddress());
  const [answers, setAnswers] = useState<Partial<Record<Tile, DashboardTileAnswer>>>({});
  // Bumped when requests changed elsewhere (the server tells every open dashboard): tiles load again.
  const [changes, setChanges] = useState(0);

  useEffect(() => {
    const reload = () => setChanges((c) => c + 1);
    let missed = false;
    const follower = followChanges({
      fetch: async () => undefined,
      isEditing: () => document.hidden,
      apply: reload,
      hold: () => {
        missed = true;
      },
    });
    let lastLoad = 0;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      if (pending !== undefined) return;
      pending = setTimeout(
        () => {
          pending = undefined;
          lastLoad = Date.now();
          follower.changed();
        },
        Math.max(0, lastLoad + LIVE_MIN_INTERVAL_MS - Date.now()),
      );
    };
    const shown = () => {
      if (document.hidden || !missed) return;
      missed = false;
      reload();
    };
    document.addEventListener('visibilitychange', shown);
    const stop = followTopic('dashboard', changed);
    const stopReconnected = onLiveReconnected(changed);
    return () => {
      clearTimeout(pending);
      document.removeEventListener('visibilitychange', shown);
      stop();
      stopReconnected();
      follower.stop();
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: changes is what asks for a new load
  useEffect(() => {
    writeAddress(filters);
    let current = true;
    for (const tile of TILES) {
      api
        .call(dashboardTileRoute, { params: { bind: tile }, query: tileQuery(tile, filters, PAGE_SIZE) })
        .then((answer) => current && setAnswers((a) => ({ ...a, [tile]: answer })))
        .catch((error) => current && store.report(error));
    }
    return () => {
      current = false;
    };
  }, [api, store, filters, changes]);

  // A change of a common filter starts every tile at its first page again.
  const common = (change: Partial<DashboardFilters>) =>
    setFilters((f) => ({
      ...f,
      ...change,
      tiles: Object.fromEntries(
        TILES.map((x) => [x, { ...f.tiles[x], offset: 0 }]),
      ) as DashboardFilters['tiles'],
    }));
  const tileChange = (tile: Tile, change: Partial<DashboardFilters['tiles'][Tile]>) =>
    setFilters((f) => ({ ...f, tiles: { ...f.tiles, [tile]: { ...f.tiles[tile], ...change } } }));

  const ownerOptions = [
    { value: 'all', label: t('dashboard.owner.all') },
    ...(view.canShowMine ? [{ value: 'mine', label: t('dashboard.owner.mine') }] : []),
    ...view.selectableOwners.map((o) => ({ value: o.id, label: o.name })),
  ];

  return (
    <Container size="xl" data-testid="dashboard-page">
      <Title order={2} mb="md">
        {view.title}
      </Title>
      <Group mb="md" align="flex-end">
        <Select
          label={t('dashboard.due.label')}
          data-testid="dashboard-due"
          allowDeselect={false}
          value={filters.due || 'all'}
          data={['all', 'today', 'tomorrow', 'dayAfterTomorrow'].map((v) => ({
            value: v,
            label: t(`dashboard.due.${v}`),
          }))}
          onChange={(v) => common({ due: !v || v === 'all' ? '' : v })}
        />
        <Select
          label={t('dashboard.owner.label')}
          data-testid="dashboard-owner"
          allowDeselect={false}
          searchable
          value={filters.owner || 'all'}
          data={ownerOptions}
          onChange={(v) => common({ owner: v ?? 'all' })}
        />
        <Select
          label={t('dashboard.taskType.label')}
          data-testid="dashboard-task-type"
          w={280}
          allowDeselect={false}
          value={filters.taskType || 'empty'}
          data={[
            { value: 'empty', label: t('dashboard.taskType.empty') },
            { value: 'all', label: t('dashboard.taskType.all') },
            ...WORKFLOW_TASK_TYPES.map((type) => ({ value: type, label: t(`taskTypes.${type}`) })),
          ]}
          onChange={(v) => common({ taskType: !v || v === 'empty' ? '' : v })}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
        {TILES.map((tile) => (
          <DashboardTile
            key={tile}
            tile={tile}
            answer={answers[tile]}
            activeKey={filters.tiles[tile].key}
            countCap={view.countCap}
            onKey={(key) => tileChange(tile, { key, offset: 0 })}
            onPage={(offset) => tileChange(tile, { offset })}
          />
        ))}
      </SimpleGrid>
    </Container>
  );
});
