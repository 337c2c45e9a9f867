import type { RequestSearchAnswer } from '@dossier/core';
import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../ui/dates';
import { PagingArrows } from '../../ui/forms/PagingArrows';
import { RequestHoverPreview } from '../../ui/RequestHoverPreview';
import { highlightPieces } from './searchTerms';

const STATUS_COLOURS = { submitted: 'blue', open: 'green', closed: 'gray' } as const;

/** The summary with paging arrows, then one row per hit linking to its request page. */
export function RequestHits({
  result,
  pageSize,
  onPage,
}: {
  result: RequestSearchAnswer;
  pageSize: number;
  onPage(offset: number): void;
}) {
  const { t } = useTranslation();
  const offset = result.paging.offset;
  return (
    <Stack gap="xs" mt="md" data-testid="find-requests-result">
      <Group justify="space-between">
        <Text size="sm" data-testid="search-summary">
          {result.summary}
        </Text>
        <PagingArrows
          offset={offset}
          shown={result.hits.length}
          total={result.total}
          pageSize={pageSize}
          onPage={onPage}
          labels={{ previous: t('requestSearch.previous'), next: t('requestSearch.next') }}
        />
      </Group>
      {result.hits.length > 0 && (
        <Table striped highlightOnHover data-testid="search-results">
          <Table.Thead>
            <Table.Tr>
              {(['requestNumber', 'applicant', 'recipient', 'submittedAt', 'status'] as const).map((c) => (
                <Table.Th key={c}>{t(`requestSearch.columns.${c}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.hits.map(({ id, item, highlight }) => (
              <Table.Tr key={id} data-testid={`search-hit-${id}`}>
                <Table.Td>
                  <RequestHoverPreview requestNumber={item.requestNumber}>
                    <Link to={`/requests/${item.requestNumber}`} data-testid="search-hit-link">
                      {item.requestNumber}
                    </Link>
                  </RequestHoverPreview>
                  {highlight && (
                    <Text size="xs" c="dimmed" data-testid="search-hit-highlight">
                      {highlightPieces(highlight).map((p, i) =>
                        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed text
                        p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
                      )}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{item.applicantName}</Table.Td>
                <Table.Td>{item.recipientName}</Table.Td>
                <Table.Td>{formatDateTime(item.submittedAt)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={STATUS_COLOURS[item.status]}>
                    {t(`requestSearch.status.${item.status}`)}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
