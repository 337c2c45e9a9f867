import { type DownloadFileItem, type DownloadFilesView, storedFileRoute } from '@dossier/core';
import { Button, Container, Group, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServices } from '../../shell/ServicesContext';
import { formatDateTime } from '../../ui/dates';
import { definePage } from '../../view/page';

/**
 * /results/download-files: quality-assured results, those still to download first (newest
 * QA first), then the downloaded ones. Download fetches the file; the server records the fetch and,
 * for the request's sender side, marks the result downloaded once the bytes went out, so the page
 * reloads after a download that arrived whole. A failed download marks nothing and is reported.
 */
export const DownloadFilesPage = definePage<DownloadFilesView>(({ view }) => {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const [busy, setBusy] = useState<string>();

  async function download(item: DownloadFileItem) {
    setBusy(item.resultId);
    try {
      const blob = await api.download(storedFileRoute, {
        params: { key: item.file.key },
        query: { attachment: '1' },
      });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = item.file.name ?? '';
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      await store.reload();
    } catch (error) {
      store.report(error);
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <Container size="xl" data-testid="download-files-page">
      <Group justify="space-between" mb="md">
        <Title order={2}>{view.title}</Title>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          onClick={() => void store.reload()}
          data-testid="download-files-refresh"
        >
          {t('downloads.refresh')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="sm" data-testid="download-files-summary">
        {view.results.length === 0
          ? t('downloads.none')
          : t('downloads.atMost', { count: view.results.length, max: view.maxNumberResultsFetched })}
      </Text>
      {view.results.length > 0 && (
        <Table striped data-testid="download-files-table">
          <Table.Thead>
            <Table.Tr>
              {(['result', 'qualityAssured', 'applicant', 'file', 'download'] as const).map((c) => (
                <Table.Th key={c}>{t(`downloads.columns.${c}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.results.map((item) => {
              const done = item.downloadedAt ? item : undefined;
              return (
                <Table.Tr key={item.resultId} data-testid={`download-row-${item.resultId}`}>
                  <Table.Td>
                    <Link to={`/requests/${item.requestNumber}/results/${item.resultId}`}>
                      {item.requestNumber}
                    </Link>
                  </Table.Td>
                  <Table.Td>
                    {formatDateTime(item.qualityAssuredAt)}
                    <Text size="xs" c="dimmed">
                      {item.qualityAssuredByDisplayName}
                    </Text>
                  </Table.Td>
                  <Table.Td>{item.subject}</Table.Td>
                  <Table.Td>
                    {item.file.name ?? item.file.key}
                    <Text size="xs" c="dimmed">
                      {item.itemTypes.map((i) => i.name).join(', ')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      leftSection={<IconDownload size={14} />}
                      disabled={done !== undefined}
                      loading={busy === item.resultId}
                      onClick={() => void download(item)}
                      data-testid="download-button"
                    >
                      {t('downloads.download')}
                    </Button>
                    {done && (
                      <Text size="xs" c="dimmed" mt={4} data-testid="download-done">
                        {t('downloads.downloaded', {
                          at: formatDateTime(done.downloadedAt),
                          name: done.downloadedByDisplayName ?? '',
                        })}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Container>
  );
});
