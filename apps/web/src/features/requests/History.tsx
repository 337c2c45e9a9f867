import { type RequestHistoryEntry, requestHistoryRoute } from '@dossier/core';
import { Button, Paper, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';
import { formatDateTime } from './requestApi';

const show = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? '—'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/**
 * Every event of the request: who, what, when; newest first, older pages on demand. In a tab (beside
 * Access) the tab is its frame and title.
 */
export function History({
  requestNumber,
  entries,
  inTab = false,
}: {
  requestNumber: string;
  entries: RequestHistoryEntry[];
  inTab?: boolean;
}) {
  const { t } = useTranslation();
  const { api, view } = useServices();
  const [older, setOlder] = useState<RequestHistoryEntry[]>([]);
  const [more, setMore] = useState(entries.length >= 50);
  useEffect(() => {
    setOlder([]);
    setMore(entries.length >= 50);
  }, [entries]);
  const all = [...entries, ...older];

  async function loadOlder() {
    const before = all[all.length - 1]?.id;
    try {
      const page = await api.call(requestHistoryRoute, { params: { requestNumber }, query: { before } });
      setOlder((o) => [...o, ...page.history]);
      setMore(page.history.length >= 50);
    } catch (error) {
      view.report(error);
    }
  }

  const body = (
    <>
      {all.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('request.history.empty')}
        </Text>
      ) : (
        <Table verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={190}>{t('request.history.when')}</Table.Th>
              <Table.Th w={180}>{t('request.history.who')}</Table.Th>
              <Table.Th>{t('request.history.what')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {all.map((e) => (
              <Table.Tr key={e.id} data-testid="history-entry">
                <Table.Td>
                  <Text size="sm">{formatDateTime(e.at)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{e.actorDisplayName ?? t('request.history.system')}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{e.summary}</Text>
                  {e.authenticatedBy && (
                    <Text size="xs" c="dimmed" data-testid="history-authenticated-by">
                      {t(`authenticatedBy.${e.authenticatedBy}`)}
                    </Text>
                  )}
                  {e.changes &&
                    Object.entries(e.changes).map(([field, change]) => (
                      <Text size="xs" c="dimmed" key={field} style={{ wordBreak: 'break-word' }}>
                        {field}: {show(change.from)} → {show(change.to)}
                      </Text>
                    ))}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {more && (
        <Button variant="subtle" size="xs" mt="xs" onClick={loadOlder}>
          {t('request.history.older')}
        </Button>
      )}
    </>
  );
  if (inTab) return <div data-testid="request-history">{body}</div>;
  return (
    <Paper withBorder radius="md" p="md" data-testid="request-history">
      <Title order={4} mb="sm">
        {t('request.history.title')}
      </Title>
      {body}
    </Paper>
  );
}
