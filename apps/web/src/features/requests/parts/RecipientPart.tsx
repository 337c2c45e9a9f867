import { Alert, Badge, Button, List } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Field, PartCard } from './PartCard';
import type { PartProps } from './types';

/** The recipient snapshot; it is changed on the select-recipient page. */
export function RecipientPart({ view, canEdit }: PartProps) {
  const { t } = useTranslation();
  const r = view.request.recipient;
  const n = view.request.requestNumber;
  const differences = Object.entries(r.directoryDifferences ?? {});
  return (
    <PartCard
      part="recipient"
      title={t('request.parts.recipient')}
      canEdit={canEdit}
      editing={false}
      editControl={
        <Button
          size="compact-sm"
          variant="light"
          component={Link}
          to={`/requests/${n}/select-recipient`}
          data-testid="edit-recipient"
        >
          {t('request.edit')}
        </Button>
      }
    >
      <Field label={t('request.recipient.name')} value={r.name} testId="recipient-name" />
      <Field label={t('request.recipient.phone')} value={r.phone} />
      <Field label={t('request.recipient.fax')} value={r.fax} />
      <Field label={t('request.recipient.email')} value={r.email} />
      <Field
        label={t('request.recipient.streetAddress')}
        value={r.streetAddress}
        testId="recipient-street-address"
      />
      <Field
        label={t('request.recipient.postalAddress')}
        value={r.postalAddress}
        testId="recipient-postal-address"
      />
      {r.contact?.name && <Field label={t('request.recipient.contact')} value={r.contact.name} />}
      {differences.length > 0 && (
        <Alert
          color="orange"
          title={<Badge color="orange">{t('request.recipient.updated')}</Badge>}
          data-testid="recipient-updated"
        >
          {t('request.recipient.updatedHint')}
          <List size="sm" mt={4}>
            {differences.map(([field, d]) => (
              <List.Item key={field} data-testid="recipient-difference" data-field={field}>
                {t(`request.recipient.${field}`)}: {d.request || '—'} ({t('request.recipient.directory')}:{' '}
                {d.directory || '—'})
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </PartCard>
  );
}
