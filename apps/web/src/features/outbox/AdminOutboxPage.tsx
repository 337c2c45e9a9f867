import { type AdminOutboxView, type OutboxHit, searchOutboxRoute } from '@dossier/core';
import { Alert, Container, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { SearchPanel } from '../../ui/forms/SearchPanel';
import { StatusBadge } from '../../ui/StatusBadge';
import { definePage } from '../../view/page';
import { MAIL_STATUS_COLORS } from './types';

/** /admin/outbox: outgoing mail newest first, filtered by status and recipient address. */
export const AdminOutboxPage = definePage<AdminOutboxView>(({ view }) => {
  const { t } = useTranslation();
  const column = (key: string) => t(`outbox.columns.${key}`);
  return (
    <Container size="xl" data-testid="admin-outbox-page">
      <Title order={2} mb="md">
        {view.title}
      </Title>
      {!view.sending && (
        <Alert color="yellow" mb="md" data-testid="outbox-not-sending">
          {t('outbox.notSending')}
        </Alert>
      )}
      <SearchPanel<OutboxHit>
        path={searchOutboxRoute.path}
        testId="outbox-search"
        searchOnOpen
        fields={[
          {
            name: 'status',
            label: t('outbox.fields.status'),
            options: view.statuses.map((s) => ({ value: s, label: t(`outbox.status.${s}`) })),
            placeholder: t('outbox.anyStatus'),
          },
          { name: 'to', label: t('outbox.fields.to') },
        ]}
        columns={[
          { key: 'to', label: column('to') },
          { key: 'subject', label: column('subject'), render: (m) => m.subject || t('outbox.noSubject') },
          { key: 'createdAt', label: column('createdAt'), render: (m) => formatDateTime(m.createdAt) },
          {
            key: 'status',
            label: column('status'),
            // A badge may shrink with its cell; the status must stay readable.
            render: (m) => (
              <div style={{ minWidth: 'max-content' }}>
                <StatusBadge
                  label={t(`outbox.status.${m.status}`)}
                  color={MAIL_STATUS_COLORS[m.status]}
                  testId="outbox-status"
                />
              </div>
            ),
          },
          { key: 'attempts', label: column('attempts') },
          {
            key: 'lastError',
            label: column('lastError'),
            render: (m) => (
              <Text size="sm" c="red" lineClamp={2} maw={280} title={m.lastError ?? undefined}>
                {m.lastError ?? ''}
              </Text>
            ),
          },
          {
            key: 'sentAt',
            label: column('sentAt'),
            render: (m) => (m.sentAt ? formatDateTime(m.sentAt) : ''),
          },
        ]}
        editPath={(id) => `/admin/outbox/${id}`}
      />
    </Container>
  );
});
