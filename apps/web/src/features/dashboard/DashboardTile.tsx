import type { DashboardTileAnswer } from '@dossier/core';
import { ActionIcon, Badge, Button, Card, Collapse, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { summaryOf, type Tile } from './address';
import { TileItem } from './TileItem';

function keyLabel(
  t: (k: string, o: { defaultValue: string }) => string,
  tile: Tile,
  key: string,
  name?: string,
) {
  if (tile === 'activeTasks') return t(`taskTypes.${key}`, { defaultValue: key });
  if (tile === 'correspondence') return t(`dashboard.kinds.${key}`, { defaultValue: key });
  if (tile === 'results') return t(`dashboard.resultStates.${key}`, { defaultValue: key });
  return name ?? key;
}

/** A tile: its title, the collapsible counts table, the applied key, the summary with paging, the items. */
export function DashboardTile({
  tile,
  answer,
  activeKey,
  countCap,
  onKey,
  onPage,
}: {
  tile: Tile;
  answer: DashboardTileAnswer | undefined;
  activeKey: string;
  countCap: number;
  onKey(key: string): void;
  onPage(offset: number): void;
}) {
  const { t } = useTranslation();
  const [countsOpen, setCountsOpen] = useState(false);
  const label = (key: string, name?: string) => keyLabel(t, tile, key, name);
  const summary =
    answer && summaryOf(answer.paging.offset, answer.items.length, answer.total, answer.totalIsCapped);
  const offset = answer?.paging.offset ?? 0;
  const size = answer?.paging.size ?? 10;
  return (
    <Card withBorder data-testid={`tile-${tile}`}>
      <Group justify="space-between" mb="xs">
        <Title order={4}>{t(`dashboard.tiles.${tile}`)}</Title>
        <Button
          size="compact-xs"
          variant="subtle"
          onClick={() => setCountsOpen((o) => !o)}
          data-testid="tile-counts-toggle"
        >
          {t('dashboard.counts')}
        </Button>
      </Group>
      <Collapse expanded={countsOpen}>
        <Table data-testid="tile-counts" mb="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dashboard.key')}</Table.Th>
              <Table.Th>{t('dashboard.count')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {answer?.aggregations.map((a) => (
              <Table.Tr key={a.key}>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant={a.key === activeKey ? 'light' : 'subtle'}
                    onClick={() => onKey(a.key)}
                    data-testid={`tile-key-${a.key}`}
                  >
                    {label(a.key, a.name)}
                  </Button>
                </Table.Td>
                <Table.Td data-testid={`tile-count-${a.key}`}>
                  {a.count.toLocaleString('en-AU')}
                  {a.isCapped ? '+' : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="xs" c="dimmed" mb="xs">
          {t('dashboard.countsHint', { cap: countCap.toLocaleString('en-AU') })}
        </Text>
      </Collapse>
      {activeKey && (
        <Badge
          variant="light"
          mb="xs"
          rightSection={
            <ActionIcon
              size="xs"
              variant="transparent"
              aria-label={t('dashboard.clearFilter')}
              onClick={() => onKey('')}
              data-testid="tile-clear-key"
            >
              <IconX size={12} />
            </ActionIcon>
          }
          data-testid="tile-active-key"
        >
          {t('dashboard.filteredBy', {
            key: label(activeKey, answer?.aggregations.find((a) => a.key === activeKey)?.name),
          })}
        </Badge>
      )}
      <Group justify="space-between">
        <Text size="sm" data-testid="tile-summary">
          {summary ? t(`dashboard.summary.${summary.key}`, summary.values) : '…'}
        </Text>
        {answer && answer.items.length < answer.total && (
          <Group gap={4}>
            <ActionIcon
              variant="default"
              aria-label={t('dashboard.previous')}
              disabled={offset === 0}
              onClick={() => onPage(Math.max(0, offset - size))}
              data-testid="tile-previous"
            >
              <IconChevronLeft size={16} />
            </ActionIcon>
            <ActionIcon
              variant="default"
              aria-label={t('dashboard.next')}
              disabled={offset + answer.items.length >= answer.total}
              onClick={() => onPage(offset + size)}
              data-testid="tile-next"
            >
              <IconChevronRight size={16} />
            </ActionIcon>
          </Group>
        )}
      </Group>
      <Stack gap={6} mt="xs">
        {answer?.items.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items of one page, replaced as a whole
          <TileItem key={i} item={item} />
        ))}
      </Stack>
    </Card>
  );
}
