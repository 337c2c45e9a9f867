import type { RequestKpi } from '@dossier/core';
import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PartCard } from './PartCard';
import type { PartProps } from './types';

const FIGURES: (keyof RequestKpi)[] = [
  'businessDaysElapsed',
  'businessDaysElapsedLessPended',
  'calendarDaysElapsed',
  'daysPendedExternal',
  'daysPendedInternal',
];

/** The KPI figures in days (business days except the calendar figure); never editable. */
export function KpiPart({ view }: PartProps) {
  const { t } = useTranslation();
  const kpi = view.request.kpi;
  return (
    <PartCard part="kpi" title={t('request.parts.kpi')} canEdit={false} editing={false}>
      <SimpleGrid cols={2} spacing="xs">
        {FIGURES.map((key) => (
          <Paper key={key} bg="gray.0" p="xs" radius="sm">
            <Group justify="space-between" wrap="nowrap" gap={4}>
              <Text size="xs" c="dimmed">
                {t(`request.kpi.${key}`)}
              </Text>
              <Text fw={700} size="lg" data-testid={`kpi-${key}`}>
                {kpi[key]}
              </Text>
            </Group>
          </Paper>
        ))}
      </SimpleGrid>
    </PartCard>
  );
}
