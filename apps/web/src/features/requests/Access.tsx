import { type AccessEntry, requestAccessRoute } from '@dossier/core';
import { Button, Group, Loader, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';
import { formatDateTime } from './requestApi';

/**
 * The Access tab (administrators and managers of the request's scope): who read the request's
 * personal data, newest first, a page at a time. Fetched when the tab opens, so the request page
 * itself costs nothing more.
 */
export function Access({ requestNumber }: { requestNumber: string }) {
  const { t } = useTranslation();
  const { api, view } = useServices();
  const [entries, setEntries] = useState<AccessEntry[] | undefined>();
  // The next page starts after the last entry shown (a keyset, so a deep page costs what the first does).
  const [next, setNext] = useState<string | null>(null);

  async function load(before?: string) {
    try {
      const page = await api.call(requestAccessRoute, {
        params: { requestNumber },
        query: { pageOffset: 0, ...(before ? { before } : {}) },
      });
      setEntries((shown) => [...(before ? (shown ?? []) : []), ...page.entries]);
      setNext(page.next);
    } catch (error) {
      view.report(error);
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per request shown
  useEffect(() => {
    setEntries(undefined);
    void load();
  }, [requestNumber]);

  // What left Dossier about the applicant (all their requests in the reader's scopes), to print.
  const disclosures = (
    <Group justify="flex-end" mb="xs">
      <Button
        component="a"
        href={`/requests/${encodeURIComponent(requestNumber)}/disclosures`}
        download
        variant="default"
        size="xs"
        leftSection={<IconDownload size={14} />}
        data-testid="access-disclosures"
      >
        {t('request.access.disclosures')}
      </Button>
    </Group>
  );
  if (!entries) return <Loader size="sm" />;
  if (entries.length === 0)
    return (
      <>
        {disclosures}
        <Text size="sm" c="dimmed">
          {t('request.access.empty')}
        </Text>
      </>
    );
  return (
    <>
      {disclosures}
      <Table verticalSpacing={6} data-testid="request-access">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={190}>{t('request.access.when')}</Table.Th>
            <Table.Th w={200}>{t('request.access.who')}</Table.Th>
            <Table.Th>{t('request.access.what')}</Table.Th>
            <Table.Th w={90}>{t('request.access.how')}</Table.Th>
            <Table.Th w={140}>{t('request.access.from')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id} data-testid="access-entry">
              <Table.Td>
                <Text size="sm">{formatDateTime(e.at)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{e.who}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t(`request.access.whats.${e.what}`, { name: e.fileName ?? '' })}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t(`request.access.vias.${e.via}`)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {e.address ?? '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {next && (
        <Button variant="subtle" size="xs" mt="xs" onClick={() => load(next)}>
          {t('request.access.older')}
        </Button>
      )}
    </>
  );
}
