import { type OutboxMessageView, outboxActionRoute, pathOfRoute } from '@dossier/core';
import { Anchor, Button, Container, Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServices } from '../../shell/ServicesContext';
import { formatDateTime } from '../../ui/dates';
import { Field } from '../../ui/Field';
import { StatusBadge } from '../../ui/StatusBadge';
import { useStore } from '../../view/createStore';
import { definePage } from '../../view/page';
import { MAIL_STATUS_COLORS } from './types';

// The server has already cut the HTML down to an allow list; it is still shown only in a frame
// without scripts, same-origin access or remote content, so nothing in a mail can act on the page.
const FRAME_HEAD =
  '<!doctype html><meta charset="utf-8">' +
  `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
  '<base target="_blank"><style>body{font-family:system-ui,sans-serif;font-size:14px;margin:8px}</style>';

function HtmlBody({ html, title }: { html: string; title: string }) {
  return (
    <iframe
      title={title}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      srcDoc={FRAME_HEAD + html}
      style={{ width: '100%', minHeight: 360, border: 0, resize: 'vertical' }}
      data-testid="outbox-message-html"
    />
  );
}

function TextBody({ text }: { text: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="outbox-message-text">
      {text}
    </Text>
  );
}

/** /admin/outbox/{id}: one outgoing message, its state and body; "Send again" when it failed. */
export const OutboxMessagePage = definePage<OutboxMessageView>(({ view }) => {
  const { t } = useTranslation();
  const { view: store } = useServices();
  const committing = useStore(store, (s) => s.committing);
  const { mail } = view;
  const label = (key: string) => t(`outbox.message.${key}`);
  const sendAgain = () =>
    void store.commit(pathOfRoute(outboxActionRoute.path, { mailId: mail.id, action: 'resend' }), {});
  return (
    <Container size="lg" data-testid="outbox-message-page">
      <Stack>
        <Group justify="space-between">
          <Title order={2} data-testid="page-title">
            {view.title}
          </Title>
          {view.actions.includes('resend') && (
            <Button
              onClick={sendAgain}
              loading={committing}
              title={label('sendAgainHint')}
              data-testid="outbox-send-again"
            >
              {label('sendAgain')}
            </Button>
          )}
        </Group>
        <Anchor component={Link} to="/admin/outbox" size="sm">
          {label('back')}
        </Anchor>
        <Paper withBorder p="md" data-testid="outbox-message-summary">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Field label={label('to')} testId="outbox-message-to">
              {mail.to}
            </Field>
            <Field label={label('status')}>
              <StatusBadge
                label={t(`outbox.status.${mail.status}`)}
                color={MAIL_STATUS_COLORS[mail.status]}
                testId="outbox-message-status"
              />
            </Field>
            <Field label={label('createdAt')}>{formatDateTime(mail.createdAt)}</Field>
            <Field label={label('attempts')} testId="outbox-message-attempts">
              {mail.attempts}
            </Field>
            {mail.sentAt && <Field label={label('sentAt')}>{formatDateTime(mail.sentAt)}</Field>}
            {mail.failedAt && <Field label={label('failedAt')}>{formatDateTime(mail.failedAt)}</Field>}
            {mail.nextAttemptAt && (
              <Field label={label('nextAttemptAt')}>{formatDateTime(mail.nextAttemptAt)}</Field>
            )}
            <Field label={label('scope')}>{mail.scope}</Field>
            {mail.messageId && <Field label={label('messageId')}>{mail.messageId}</Field>}
          </SimpleGrid>
          {mail.lastError && (
            <Stack gap={0} mt="sm" data-testid="outbox-message-error">
              <Text size="xs" c="dimmed">
                {label('lastError')}
              </Text>
              <Text size="sm" c="red">
                {mail.lastError}
              </Text>
            </Stack>
          )}
        </Paper>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed">
            {label('subject')}
          </Text>
          <Title order={4} mb="sm" data-testid="outbox-message-subject">
            {mail.subject || t('outbox.noSubject')}
          </Title>
          {mail.html ? (
            <Tabs defaultValue="html">
              <Tabs.List>
                <Tabs.Tab value="html">{label('html')}</Tabs.Tab>
                <Tabs.Tab value="text">{label('text')}</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="html" pt="sm">
                <HtmlBody html={mail.html} title={label('htmlFrame')} />
              </Tabs.Panel>
              <Tabs.Panel value="text" pt="sm">
                <TextBody text={mail.text} />
              </Tabs.Panel>
            </Tabs>
          ) : (
            <TextBody text={mail.text} />
          )}
          <Text size="xs" c="dimmed" mt="md">
            {label('attachments')}
          </Text>
          {mail.attachments.length === 0 ? (
            <Text size="sm" c="dimmed">
              {label('noAttachments')}
            </Text>
          ) : (
            <Group gap="md" data-testid="outbox-message-attachments">
              {/* Each opens in a new tab (the server shows only safe types inline). */}
              {mail.attachments.map((a) => (
                <Anchor
                  key={a.url}
                  size="sm"
                  href={a.url}
                  target="_blank"
                  rel="noopener"
                  data-testid="outbox-message-attachment"
                >
                  {a.name}
                </Anchor>
              ))}
            </Group>
          )}
        </Paper>
      </Stack>
    </Container>
  );
});
