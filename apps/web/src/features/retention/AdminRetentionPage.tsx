import { type AdminRetentionView, runRetentionRoute } from '@dossier/core';
import { Anchor, Button, Container, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { followTopic, onLiveReconnected } from '../../shell/liveChanges';
import { useServices } from '../../shell/ServicesContext';
import { useStore } from '../../view/createStore';
import { definePage } from '../../view/page';
import { monthsOf, RetentionRuns } from './RetentionRuns';

/** /admin/retention: what the next run will remove, per scope, before it runs; Run now; the latest runs. */
export const AdminRetentionPage = definePage<AdminRetentionView>(({ view }) => {
  const { t } = useTranslation();
  const { view: store } = useServices();
  const committing = useStore(store, (s) => s.committing);
  const col = (key: string) => t(`retention.due.${key}`);
  const months = (m: number | null) =>
    m === null ? t('retention.due.kept') : t('retention.due.months', { count: m });
  const nothing = view.totals.requestsWithFilesDue === 0 && view.totals.requestsToDeIdentify === 0;
  // Run now is queued as a job: each finished run publishes the topic, and the page loads again to
  // show its record (and what is due now).
  useEffect(() => {
    const changed = () => void store.reload();
    const stop = followTopic('retention', changed);
    const stopReconnected = onLiveReconnected(changed);
    return () => {
      stop();
      stopReconnected();
    };
  }, [store]);
  return (
    <Container size="xl" data-testid="admin-retention-page">
      <Stack>
        <Group justify="space-between">
          <Title order={2} data-testid="page-title">
            {view.title}
          </Title>
          <Group>
            <Anchor component={Link} to="/admin/retention/erasure" data-testid="retention-erasure-link">
              {t('retention.erasureLink')}
            </Anchor>
            <Button
              color="red"
              loading={committing}
              onClick={() => void store.commit(runRetentionRoute.path, {})}
              data-testid="retention-run-now"
            >
              {t('retention.runNow')}
            </Button>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('retention.intro')}
        </Text>
        <Paper withBorder p="md">
          <Title order={4} mb="sm">
            {t('retention.nextRun')}
          </Title>
          {view.due.length === 0 ? (
            <Text c="dimmed" data-testid="retention-no-scopes">
              {t('retention.noScopes')}
            </Text>
          ) : (
            <Table data-testid="retention-due">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{col('scope')}</Table.Th>
                  <Table.Th>{col('filesAfter')}</Table.Th>
                  <Table.Th>{col('personalAfter')}</Table.Th>
                  <Table.Th>{col('requestsWithFiles')}</Table.Th>
                  <Table.Th>{col('files')}</Table.Th>
                  <Table.Th>{col('deIdentify')}</Table.Th>
                  <Table.Th>{col('held')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {view.due.map((d) => (
                  <Table.Tr key={d.scope} data-testid="retention-due-row">
                    <Table.Td>{d.scope}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{months(d.deleteFilesAfterMonths)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{months(d.deIdentifyAfterMonths)}</Table.Td>
                    <Table.Td>{d.requestsWithFilesDue}</Table.Td>
                    <Table.Td>{d.filesDue}</Table.Td>
                    <Table.Td>{d.requestsToDeIdentify}</Table.Td>
                    <Table.Td>{d.held}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr data-testid="retention-totals" style={{ fontWeight: 600 }}>
                  <Table.Td colSpan={3}>{col('total')}</Table.Td>
                  <Table.Td data-testid="retention-total-requests-files">
                    {view.totals.requestsWithFilesDue}
                  </Table.Td>
                  <Table.Td data-testid="retention-total-files">{view.totals.filesDue}</Table.Td>
                  <Table.Td data-testid="retention-total-de-identify">
                    {view.totals.requestsToDeIdentify}
                  </Table.Td>
                  <Table.Td data-testid="retention-total-held">{view.totals.held}</Table.Td>
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          )}
          {nothing && view.due.length > 0 && (
            <Text size="sm" c="dimmed" mt="sm" data-testid="retention-nothing-due">
              {t('retention.nothingDue')}
            </Text>
          )}
        </Paper>
        <Paper withBorder p="md" data-testid="retention-access-log">
          <Title order={4} mb="sm">
            {t('retention.accessLog.title')}
          </Title>
          <Text size="sm">
            {view.accessLog.keepMonths === null
              ? t('retention.accessLog.keepAll')
              : t('retention.accessLog.keep', { count: view.accessLog.keepMonths })}
          </Text>
          {view.accessLog.keepMonths !== null && (
            <Text size="sm" c="dimmed" data-testid="retention-access-log-due">
              {view.accessLog.monthsDue.length > 0
                ? t('retention.accessLog.due', { list: monthsOf(view.accessLog.monthsDue, t) })
                : t('retention.accessLog.noneDue')}
            </Text>
          )}
        </Paper>
        <Paper withBorder p="md">
          <Title order={4} mb="sm">
            {t('retention.runs.title')}
          </Title>
          <RetentionRuns runs={view.runs} />
        </Paper>
      </Stack>
    </Container>
  );
});
