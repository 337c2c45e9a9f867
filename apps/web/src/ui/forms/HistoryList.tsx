import type { HistoryEntry } from '@dossier/core';
import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../dates';

const show = (value: unknown) => {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/** The audit trail of a record: who changed what, when (newest first). */
export function HistoryList({ entries }: { entries: HistoryEntry[] | undefined }) {
  const { t } = useTranslation();
  if (!entries || entries.length === 0) return null;
  return (
    <Paper withBorder p="md" data-testid="history">
      <Title order={4} mb="sm">
        {t('admin.history.title')}
      </Title>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.history.when')}</Table.Th>
            <Table.Th>{t('admin.history.who')}</Table.Th>
            <Table.Th>{t('admin.history.what')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id} data-testid="history-entry">
              <Table.Td>{formatDateTime(e.at)}</Table.Td>
              <Table.Td>{e.actor ?? '—'}</Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  <Text size="sm" fw={600}>
                    {t(`admin.history.types.${e.type}`, { defaultValue: e.type })}
                  </Text>
                  {e.authenticatedBy && (
                    <Text size="xs" c="dimmed" data-testid="history-authenticated-by">
                      {t(`authenticatedBy.${e.authenticatedBy}`)}
                    </Text>
                  )}
                  {Object.entries(e.changes).map(([field, change]) => (
                    <Text size="xs" key={field} style={{ wordBreak: 'break-word' }}>
                      {field}: {show(change.from)} → {show(change.to)}
                    </Text>
                  ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
