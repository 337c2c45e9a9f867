import { Anchor, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../ui/dates';
import { StatusBadge } from '../../../ui/StatusBadge';
import type { RequestListProps } from '../lists';
import { LinkedListFrame } from './LinkedListFrame';
import { RESULT_STATUS_COLORS, resultStatus } from './resultStatus';
import { StoredFileLink } from './StoredFileLink';

/** The Results list of the request page: each result with its status, file and page link. */
export function ResultList({ view }: RequestListProps) {
  const { t } = useTranslation();
  const n = view.request.requestNumber;
  return (
    <LinkedListFrame
      title={t('results.title')}
      empty={t('results.none')}
      items={view.results}
      testId="request-results"
      render={(items) => (
        <Table striped highlightOnHover verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('results.tags')}</Table.Th>
              <Table.Th>{t('results.file')}</Table.Th>
              <Table.Th>{t('results.createdAt')}</Table.Th>
              <Table.Th>{t('results.statusLabel')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((result) => {
              const status = resultStatus(result);
              return (
                <Table.Tr key={result.resultId} data-testid="result-item" data-status={status}>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`/requests/${n}/results/${result.resultId}`}
                      size="sm"
                      data-testid="result-link"
                    >
                      {Object.values(result.tags).join(', ') || t('results.open')}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <StoredFileLink
                      file={result.file}
                      removedAt={result.fileRemovedAt}
                      fallbackName={t('results.file')}
                      testId="result-file"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(result.createdAt)}</Text>
                    {result.createdByDisplayName && (
                      <Text size="xs" c="dimmed">
                        {result.createdByDisplayName}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge label={t(`results.status.${status}`)} color={RESULT_STATUS_COLORS[status]} />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    />
  );
}
