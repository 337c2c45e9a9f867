import { type WebhookDelivery, webhookDeliveriesRoute } from '@dossier/core';
import { Badge, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Fragment, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api';
import { useServices } from '../../../shell/ServicesContext';
import { formatDateTime } from '../../../ui/dates';

type Delivery = WebhookDelivery;

const STATUS_COLOR = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

/** Every attempt of one delivery: when, how long, and what the receiver answered (or the error). */
function AttemptRows({ delivery, when }: { delivery: Delivery; when: (iso: string) => string }) {
  const { t } = useTranslation();
  return (
    <Table.Tr data-testid="webhook-attempts">
      <Table.Td colSpan={5}>
        <Table withTableBorder fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('configuration.webhook.attempt')}</Table.Th>
              <Table.Th>{t('configuration.webhook.attemptedAt')}</Table.Th>
              <Table.Th>{t('configuration.webhook.duration')}</Table.Th>
              <Table.Th>{t('configuration.webhook.responseStatus')}</Table.Th>
              <Table.Th>{t('configuration.webhook.responseExcerpt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {delivery.attemptLog.map((a) => (
              <Table.Tr key={a.attempt} data-testid="webhook-attempt">
                <Table.Td>{a.attempt}</Table.Td>
                <Table.Td>{when(a.attemptedAt)}</Table.Td>
                <Table.Td>
                  {a.durationMs === null
                    ? ''
                    : t('configuration.webhook.durationValue', { ms: a.durationMs })}
                </Table.Td>
                <Table.Td data-testid="webhook-attempt-status">
                  {a.responseStatus ?? t('configuration.webhook.noAnswer')}
                </Table.Td>
                <Table.Td>
                  {a.error && (
                    <Text size="sm" c="red">
                      {a.error}
                    </Text>
                  )}
                  {a.responseExcerpt && <Code block>{a.responseExcerpt}</Code>}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.Td>
    </Table.Tr>
  );
}

/** The latest deliveries of a webhook entry, what the receiver answered, and each of their attempts. */
export function WebhookDeliveries({
  configurationId,
  entryId,
}: {
  configurationId: string;
  entryId: string;
}) {
  const { t } = useTranslation();
  const { view } = useServices();
  const [deliveries, setDeliveries] = useState<Delivery[] | undefined>();
  const [open, setOpen] = useState<Set<string>>(new Set());
  const load = useCallback(async () => {
    try {
      const answer = await api.call(webhookDeliveriesRoute, {
        params: { configuration: configurationId, id: entryId },
      });
      setDeliveries(answer.deliveries);
    } catch (error) {
      view.report(error);
    }
  }, [configurationId, entryId, view]);
  useEffect(() => {
    void load();
  }, [load]);
  const when = (iso: string) => formatDateTime(iso);
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
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
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deliveries.map((d) => (
              <Fragment key={d.id}>
                <Table.Tr data-testid="webhook-delivery">
                  <Table.Td>{when(d.lastAttemptAt ?? d.createdAt)}</Table.Td>
                  <Table.Td>{d.eventType}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[d.status]}>
                      {t(`configuration.webhook.statuses.${d.status}`)}
                    </Badge>{' '}
                    {t('configuration.webhook.attempts', { count: d.attempts })}
                  </Table.Td>
                  <Table.Td>{d.error ?? d.responseStatus ?? ''}</Table.Td>
                  <Table.Td>
                    {d.attemptLog.length > 0 && (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => toggle(d.id)}
                        data-testid="webhook-delivery-toggle"
                      >
                        {t(
                          open.has(d.id)
                            ? 'configuration.webhook.hideAttempts'
                            : 'configuration.webhook.showAttempts',
                        )}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
                {open.has(d.id) && <AttemptRows delivery={d} when={when} />}
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
