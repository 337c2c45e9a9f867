import type { RecipientAccessItem, RequestView } from '@dossier/core';
import { DEFAULT_LOCALE } from '@dossier/core';
import { Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { i18next } from '../../i18n';
import texts from './recipientAccessTexts.json';
import { formatDateTime, useRequestCommit } from './requestApi';

// The recipient's links of the request (issue 34), staff only: when each was sent and to where,
// first opened, last used, when it expires, whether it is locked or revoked; Revoke one, or Re-send
// (a new link and passcode by email, the old ones stop working).

const STATUS_COLORS: Record<RecipientAccessItem['status'], string> = {
  open: 'teal.8',
  expired: 'gray.7',
  revoked: 'gray.7',
  locked: 'red.8',
};

// These texts come with the request page's chunk, not with every page's first load (its budget).
i18next.addResourceBundle(DEFAULT_LOCALE, 'translation', texts, true, false);

export const RECIPIENT_ACCESS_ACTIONS = ['revokeRecipientAccess', 'resendRecipientAccess'];

export function RecipientAccessList({ view, busy }: { view: RequestView; busy: boolean }) {
  const { t } = useTranslation();
  const commit = useRequestCommit();
  const accesses = view.recipientAccesses;
  if (!accesses) return null;
  const n = view.request.requestNumber;
  const canRevoke = view.actions.includes('revokeRecipientAccess');
  const canResend = view.actions.includes('resendRecipientAccess');
  const when = (value: string | null) => (value ? formatDateTime(value) : '—');
  return (
    <Paper withBorder p="md" data-testid="recipient-accesses">
      <Group justify="space-between" mb="xs">
        <Title order={4}>{t('request.recipientAccess.title')}</Title>
        {canResend && (
          <Button
            size="xs"
            variant="light"
            disabled={busy || commit.busy}
            onClick={() => void commit.runAction(n, 'resendRecipientAccess', {})}
            data-testid="recipient-access-resend"
          >
            {t('request.recipientAccess.resend')}
          </Button>
        )}
      </Group>
      {accesses.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('request.recipientAccess.none')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('request.recipientAccess.sent')}</Table.Th>
                <Table.Th>{t('request.recipientAccess.firstOpened')}</Table.Th>
                <Table.Th>{t('request.recipientAccess.lastUsed')}</Table.Th>
                <Table.Th>{t('request.recipientAccess.expires')}</Table.Th>
                <Table.Th>{t('request.recipientAccess.status')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {accesses.map((a) => (
                <Table.Tr key={a.accessId} data-testid="recipient-access">
                  <Table.Td>
                    {formatDateTime(a.sentAt)} ·{' '}
                    {t(`request.recipientAccess.method.${a.method}`, { defaultValue: a.method })} ({a.sentTo})
                  </Table.Td>
                  <Table.Td>{when(a.firstOpenedAt)}</Table.Td>
                  <Table.Td>{when(a.lastUsedAt)}</Table.Td>
                  <Table.Td>{formatDateTime(a.expiresAt)}</Table.Td>
                  <Table.Td>
                    <Text
                      size="sm"
                      fw={600}
                      c={STATUS_COLORS[a.status]}
                      data-testid="recipient-access-status"
                    >
                      {t(`request.recipientAccess.${a.status}`)}
                    </Text>
                    {a.status === 'locked' && a.lockedAt && (
                      <Text size="xs">{formatDateTime(a.lockedAt)}</Text>
                    )}
                    {a.status === 'revoked' && a.revokedAt && (
                      <Text size="xs">{formatDateTime(a.revokedAt)}</Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {canRevoke && (a.status === 'open' || a.status === 'locked') && (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        disabled={busy || commit.busy}
                        onClick={() =>
                          void commit.runAction(n, 'revokeRecipientAccess', { accessId: a.accessId })
                        }
                        data-testid="recipient-access-revoke"
                      >
                        {t('request.recipientAccess.revoke')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
