import {
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { followTopic } from '../../shell/liveChanges';
import { useServices } from '../../shell/ServicesContext';
import { ChangedNotice } from '../../ui/ChangedNotice';
import { formatDateTime } from '../../ui/dates';
import { TaskList } from '../../ui/TaskList';
import { useFollowView } from '../../view/follow';
import { definePage } from '../../view/page';
import { LinkPanel } from './LinkPanel';
import { type InboxMessageView, senderOf } from './types';
import { UnlinkPanel } from './UnlinkPanel';

/**
 * /inbox/messages/{messageId}: the message, a summary, its tasks and its request links, with
 * the actions Link / Classify and Unlink; an unmatched message also shows the likely requests.
 */
export const InboxMessagePage = definePage<InboxMessageView>(({ view }) => {
  const { t } = useTranslation();
  const { view: store } = useServices();
  const [panel, setPanel] = useState<'link' | 'unlink' | null>(
    view.action === 'link' || view.action === 'unlink' ? view.action : null,
  );
  const [suggested, setSuggested] = useState('');
  const { message, summary } = view;
  const done = () => {
    setPanel(null);
    void store.reload();
  };
  // Links made or removed by others come in live; while a panel is open they wait behind a notice.
  const path = `/inbox/messages/${encodeURIComponent(message.messageId)}`;
  const { changedElsewhere, showChanges } = useFollowView({
    key: message.messageId,
    editing: panel !== null,
    subscribe: (changed) => followTopic(`inbox:${message.messageId}`, changed),
    path: () => path,
    accepts: (fresh, shown) =>
      fresh.$type === 'inboxMessage' &&
      shown.view.$type === 'inboxMessage' &&
      (shown.view as InboxMessageView).message.messageId === message.messageId &&
      (fresh as InboxMessageView).message.messageId === message.messageId,
  });
  return (
    <Container size="lg" data-testid="inbox-message-page">
      <Group justify="space-between" mb="md">
        <Title order={2}>{view.title}</Title>
        <Group gap="xs">
          {view.actions.includes('link') && (
            <Button
              onClick={() => setPanel('link')}
              disabled={panel !== null}
              data-testid="inbox-action-link"
            >
              {t('inbox.actions.link')}
            </Button>
          )}
          {view.actions.includes('unlink') && (
            <Button
              variant="default"
              onClick={() => setPanel('unlink')}
              disabled={panel !== null}
              data-testid="inbox-action-unlink"
            >
              {t('inbox.actions.unlink')}
            </Button>
          )}
        </Group>
      </Group>
      <Stack gap="md">
        {changedElsewhere && <ChangedNotice text={t('inbox.changedElsewhere')} onShow={showChanges} />}
        {panel === 'link' && (
          <LinkPanel view={view} initialNumber={suggested} onDone={done} onCancel={() => setPanel(null)} />
        )}
        {panel === 'unlink' && <UnlinkPanel view={view} onDone={done} onCancel={() => setPanel(null)} />}
        {summary.flagReason && (
          <Alert color="red" title={t('inbox.message.flagged')} data-testid="inbox-flag">
            {summary.flagReason}
          </Alert>
        )}
        <Paper withBorder p="md" data-testid="inbox-message-summary">
          <Title order={4} mb="sm">
            {t('inbox.message.summary')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <div>
              <Text size="xs" c="dimmed">
                {t('inbox.message.from')}
              </Text>
              <Text size="sm">{summary.from}</Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                {t('inbox.message.to')}
              </Text>
              <Text size="sm">{message.to.map(senderOf).join(', ') || '—'}</Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                {t('inbox.message.receivedAt')}
              </Text>
              <Text size="sm">{formatDateTime(summary.receivedAt)}</Text>
            </div>
          </SimpleGrid>
          <Anchor
            href={`/files/${encodeURIComponent(summary.rawFileKey)}`}
            size="sm"
            mt="sm"
            display="inline-block"
          >
            {t('inbox.message.raw')}
          </Anchor>
        </Paper>
        <Paper withBorder p="md">
          <Title order={4} mb="sm">
            {t('inbox.message.body')}
          </Title>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="inbox-message-body">
            {message.bodyPlainText}
          </Text>
          <Text size="xs" c="dimmed" mt="md">
            {t('inbox.message.attachments')}
          </Text>
          {message.attachments.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('inbox.message.noAttachments')}
            </Text>
          ) : (
            <Group gap="xs" data-testid="inbox-message-attachments">
              {message.attachments.map((a, i) =>
                a.blocked || !a.key ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the attachments and links of one message never reorder
                  <Badge key={`${a.name}-${i}`} color="red" variant="light" title={a.blockedReason}>
                    {a.name} · {t('inbox.message.blocked')}
                  </Badge>
                ) : (
                  <Anchor key={a.key} href={`/files/${encodeURIComponent(a.key)}`} size="sm">
                    {a.name}
                  </Anchor>
                ),
              )}
            </Group>
          )}
        </Paper>
        {view.suggestions.length > 0 && (
          <Paper withBorder p="md" data-testid="inbox-suggestions">
            <Title order={4} mb="sm">
              {t('inbox.message.suggestions')}
            </Title>
            <Table>
              <Table.Tbody>
                {view.suggestions.map((s) => (
                  <Table.Tr key={s.requestNumber} data-testid="inbox-suggestion">
                    <Table.Td>
                      <Link to={`/requests/${s.requestNumber}`}>{s.requestNumber}</Link>
                    </Table.Td>
                    <Table.Td>{s.applicantName}</Table.Td>
                    <Table.Td>{s.recipientName}</Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed">
                        {s.reasons.map((r) => t(`inbox.message.suggestionReasons.${r}`)).join(', ')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => {
                          setSuggested(s.requestNumber);
                          setPanel('link');
                        }}
                      >
                        {t('inbox.message.use')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
        <Paper withBorder p="md" data-testid="inbox-links">
          <Title order={4} mb="sm">
            {t('inbox.message.links')}
          </Title>
          {message.requestLinks.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('inbox.message.noLinks')}
            </Text>
          ) : (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('inbox.columns.requests')}</Table.Th>
                  <Table.Th>{t('inbox.message.linkedAt')}</Table.Th>
                  <Table.Th>{t('inbox.message.linkedBy')}</Table.Th>
                  <Table.Th>{t('inbox.message.unlinkedAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {message.requestLinks.map((l, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the attachments and links of one message never reorder
                  <Table.Tr key={`${l.requestNumber}-${i}`} data-testid="inbox-link-row">
                    <Table.Td>
                      <Link to={`/requests/${l.requestNumber}`}>{l.requestNumber}</Link>
                    </Table.Td>
                    <Table.Td>{formatDateTime(l.linkedAt)}</Table.Td>
                    <Table.Td>{l.linkedByDisplayName ?? '—'}</Table.Td>
                    <Table.Td>{l.unlinkedAt ? formatDateTime(l.unlinkedAt) : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
        <TaskList title={t('inbox.message.tasks')} tasks={view.tasks} testId="inbox-tasks" />
      </Stack>
    </Container>
  );
});
