import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api';
import { useServices } from '../../../shell/ServicesContext';
import { entryPath } from '../types';

interface Delivery {
  id: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
}

const STATUS_COLOR = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

/** The latest deliveries of a webhook entry and what the receiver answered. */
export function WebhookDeliveries({
  configurationId,
  entryId,
}: {
  configurationId: string;
  entryId: string;
}) {
  const { t, i18n } = useTranslation();
  const { view } = useServices();
  const [deliveries, setDeliveries] = useState<Delivery[] | undefined>();
  const load = useCallback(async () => {
    try {
      const answer = await api.get<{ deliveries: Delivery[] }>(
        `${entryPath(configurationId, entryId)}/deliveries`,
      );
      setDeliveries(answer.deliveries);
    } catch (error) {
      view.report(error);
    }
  }, [configurationId, entryId, view]);
  useEffect(() => {
    void load();
  }, [load]);
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : '');
  return (
    <Stack gap="xs" data-testid="webhook-deliveries">
      <Group justify="space-between">
        <Title order={5}>{t('configuration.webhook.deliveries')}</Title>
        <Button size="compact-sm" variant="default" onClick={() => void load()}>
          {t('configuration.webhook.refresh')}
        </Button>
      </Group>
      {deliveries?.length === 0 && <Text c="dimmed">{t('configuration.webhook.noDeliveries')}</Text>}
      {deliveries && deliveries.length > 0 && (
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('configuration.webhook.sentAt')}</Table.Th>
              <Table.Th>{t('configuration.webhook.event')}</Table.Th>
              <Table.Th>{t('configuration.webhook.status')}</Table.Th>
              <Table.Th>{t('configuration.webhook.answer')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deliveries.map((d) => (
              <Table.Tr key={d.id} data-testid="webhook-delivery">
                <Table.Td>{when(d.lastAttemptAt ?? d.createdAt)}</Table.Td>
                <Table.Td>{d.eventType}</Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLOR[d.status]}>
                    {t(`configuration.webhook.statuses.${d.status}`)}
                  </Badge>{' '}
                  {t('configuration.webhook.attempts', { count: d.attempts })}
                </Table.Td>
                <Table.Td>{d.error ?? d.responseStatus ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
