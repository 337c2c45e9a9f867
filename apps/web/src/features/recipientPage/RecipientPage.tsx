import type { RecipientPageView } from '@dossier/core';
import { Anchor, Button, Container, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../ui/dates';
import { definePage } from '../../view/page';
import { AnswerForm, InvoiceForm, MessageForm, RecordsForm } from './AnswerForms';
import { PasscodeForm } from './PasscodeForm';
import './texts';

// /r/{token}: the recipient's page (issue 34). No account and no menu: the passcode form until the
// passcode was right, then what is asked and the ways to answer it. Plain, one column on a phone,
// and printable (the browser's print prints what is asked; the forms print empty).

function Block({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Paper withBorder p="md" data-testid={testId}>
      <Title order={3} size="h4" mb="xs">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Row({ label, value }: { label: string; value: string | null | undefined }) {
  return value ? (
    <Text size="sm">
      <Text span fw={600}>
        {label}:
      </Text>{' '}
      {value}
    </Text>
  ) : null;
}

export const RecipientPage = definePage<RecipientPageView>(({ view }) => {
  const { t } = useTranslation();
  const request = view.request;
  if (view.state === 'passcode' || !request) return <PasscodeForm view={view} />;
  const fileUrl = (key: string) => `/r/${encodeURIComponent(view.token)}/files/${encodeURIComponent(key)}`;
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  return (
    <Container size="md" px="xs" py="md" data-testid="recipient-page">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Title order={2} data-testid="recipient-title">
              {t('recipientPage.title', { requestNumber: request.requestNumber })}
            </Title>
            <Text c="dimmed" size="sm">
              {t('recipientPage.from', { sender: request.sender, recipient: request.recipient })}
            </Text>
            <Text c="dimmed" size="xs">
              {t('recipientPage.expires', { date: formatDate(request.expiresAt) })}
            </Text>
          </div>
          <Button variant="default" size="xs" onClick={() => window.print()}>
            {t('recipientPage.print')}
          </Button>
        </Group>

        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Block title={t('recipientPage.applicant')} testId="recipient-applicant">
            <Row label={t('recipientPage.name')} value={request.applicant.name} />
            <Row label={t('recipientPage.dateOfBirth')} value={formatDate(request.applicant.dateOfBirth)} />
            <Row label={t('recipientPage.references')} value={request.applicant.references.join('; ')} />
          </Block>
          <Block title={t('recipientPage.documents')} testId="recipient-documents">
            <Stack gap={4}>
              {request.letter && (
                <Anchor
                  href={fileUrl(request.letter.key)}
                  target="_blank"
                  rel="noopener"
                  size="sm"
                  data-testid="recipient-letter"
                >
                  {t('recipientPage.letter')}
                </Anchor>
              )}
              {request.authority && (
                <Anchor
                  href={fileUrl(request.authority.key)}
                  target="_blank"
                  rel="noopener"
                  size="sm"
                  data-testid="recipient-authority"
                >
                  {t('recipientPage.authority')}
                </Anchor>
              )}
              {!request.letter && !request.authority && (
                <Text size="sm">{t('recipientPage.noDocuments')}</Text>
              )}
            </Stack>
          </Block>
        </SimpleGrid>

        <Block title={t('recipientPage.asked')} testId="recipient-items">
          <Stack gap="xs">
            {request.items.map((item, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the items are read-only and keep their order
              <div key={i}>
                <Text fw={600} size="sm">
                  {item.name}
                </Text>
                {item.lines.length > 0 && (
                  <List size="sm" spacing={2}>
                    {item.lines.map((line, j) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: read-only lines in their order
                      <List.Item key={j}>{line}</List.Item>
                    ))}
                  </List>
                )}
              </div>
            ))}
            {request.instructions && (
              <Row label={t('recipientPage.instructions')} value={request.instructions} />
            )}
          </Stack>
        </Block>

        <RecordsForm view={view} />
        <InvoiceForm view={view} />
        <AnswerForm view={view} />
        <MessageForm view={view} />

        <Block title={t('recipientPage.sentTitle')} testId="recipient-sent">
          <Text size="xs" c="dimmed" mb="xs">
            {t('recipientPage.limit', {
              used: mb(request.uploadedBytes),
              limit: mb(request.uploadLimitBytes),
            })}
          </Text>
          {request.sent.length === 0 ? (
            <Text size="sm">{t('recipientPage.nothingSent')}</Text>
          ) : (
            <List size="sm" spacing={2}>
              {request.sent.map((s) => (
                <List.Item key={`${s.at}${s.summary}`}>
                  {formatDateTime(s.at)}: {s.summary}
                </List.Item>
              ))}
            </List>
          )}
        </Block>
      </Stack>
    </Container>
  );
});
