import type { RequestView } from '@dossier/core';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from './requestApi';

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={600} mt={4}>
        {value}
      </Text>
    </Paper>
  );
}

/** The previews of the request page: tasks, results, invoices (staff only) and last activity at a glance. */
export function Previews({ view }: { view: RequestView }) {
  const { t } = useTranslation();
  const p = view.previews;
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" data-testid="request-previews">
      <Stat
        label={t('request.previews.tasks')}
        value={t('request.previews.tasksValue', { due: p.tasksDue, completed: p.tasksCompleted })}
        testId="preview-tasks"
      />
      <Stat
        label={t('request.previews.results')}
        value={t('request.previews.resultsValue', {
          available: p.resultsAvailable,
          awaiting: p.resultsAwaitingQa,
        })}
        testId="preview-results"
      />
      {view.canViewInvoices && (
        <Stat
          label={t('request.previews.invoices')}
          value={t('request.previews.invoicesValue', { paid: p.invoicesPaid, waiting: p.invoicesWaiting })}
          testId="preview-invoices"
        />
      )}
      <Stat
        label={t('request.previews.lastActivity')}
        value={formatDateTime(p.lastActivityAt)}
        testId="preview-activity"
      />
    </SimpleGrid>
  );
}
