import type { RetentionRun } from '@dossier/core';
import { Anchor, Group, Table, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../ui/dates';

/** The request numbers of a run, each a link to its request page. */
export function RequestLinks({ numbers }: { numbers: string[] }) {
  if (numbers.length === 0) return <Text size="sm">—</Text>;
  return (
    <Group gap={6}>
      {numbers.map((n) => (
        <Anchor key={n} component={Link} to={`/requests/${n}`} size="sm">
          {n}
        </Anchor>
      ))}
    </Group>
  );
}

/**
 * The access log's partitions as people say them: a month (access_log_YYYY_MM) as 2023-04, the
 * default partition as the older entries of months without one of their own.
 */
export const monthsOf = (partitions: string[], t: TFunction) =>
  partitions
    .map((p) =>
      p === 'access_log_default'
        ? t('retention.accessLog.outsideMonths')
        : p.replace(/^access_log_(\d{4})_(\d{2})$/, '$1-$2'),
    )
    .join(', ');

/** The latest runs and erasures: kind, when, who, counts and which requests (never content). */
export function RetentionRuns({ runs }: { runs: RetentionRun[] }) {
  const { t } = useTranslation();
  const col = (key: string) => t(`retention.runs.${key}`);
  if (runs.length === 0) return <Text c="dimmed">{t('retention.runs.none')}</Text>;
  return (
    <Table striped data-testid="retention-runs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{col('kind')}</Table.Th>
          <Table.Th>{col('startedAt')}</Table.Th>
          <Table.Th>{col('by')}</Table.Th>
          <Table.Th>{col('filesRemoved')}</Table.Th>
          <Table.Th>{col('deIdentified')}</Table.Th>
          <Table.Th>{col('requests')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {runs.map((run) => (
          <Table.Tr key={run.id} data-testid="retention-run">
            <Table.Td>{t(`retention.kinds.${run.kind}`)}</Table.Td>
            <Table.Td>
              {formatDateTime(run.startedAt)}
              {run.finishedAt === null && (
                <Text size="xs" c="dimmed" data-testid="retention-run-pending">
                  {t('retention.runs.pending')}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {run.actorName ?? t('retention.runs.daily')}
              {run.requestedBy && (
                <Text size="xs" c="dimmed">
                  {t('retention.runs.askedBy', { who: run.requestedBy, why: run.reason ?? '' })}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{run.filesRemoved}</Table.Td>
            <Table.Td>{run.requestsDeIdentified}</Table.Td>
            <Table.Td>
              <RequestLinks numbers={run.requestNumbers} />
              {run.leftRequests.length > 0 && (
                <Text size="xs" c="dimmed">
                  {t('retention.runs.left', {
                    list: run.leftRequests
                      .map((l) => `${l.requestNumber} (${t(`retention.left.${l.reason}`)})`)
                      .join(', '),
                  })}
                </Text>
              )}
              {run.accessLogMonths.length > 0 && (
                <Text size="xs" c="dimmed" data-testid="retention-run-access-log">
                  {t('retention.runs.accessLogMonths', { list: monthsOf(run.accessLogMonths, t) })}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
