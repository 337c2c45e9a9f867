import type { RecipientContact } from '@dossier/core';
import { Paper, Select, SimpleGrid, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CommittedTextInput } from '../../ui/inputs';

const NEW = '__new__';
const FIELDS = ['name', 'position', 'phone', 'email'] as const;

/** The contact the request is addressed to: one of the recipient's contacts, a new one, or none. */
export function ContactChoice({
  contacts,
  value,
  errorOf,
  onChange,
}: {
  contacts: RecipientContact[];
  value: RecipientContact | null | undefined;
  errorOf(field: string): string | undefined;
  onChange(contact: RecipientContact | null): void;
}) {
  const { t } = useTranslation();
  const index = value ? contacts.findIndex((c) => c.name === value.name) : -1;
  const choice = value ? (index >= 0 ? String(index) : NEW) : null;
  return (
    <Paper withBorder p="md" data-testid="recipient-contact">
      <Title order={4} mb="sm">
        {t('selectRecipient.contact.title')}
      </Title>
      <Select
        label={t('selectRecipient.contact.choose')}
        placeholder={t('selectRecipient.contact.none')}
        data={[
          ...contacts.map((c, i) => ({
            value: String(i),
            label: [c.name, c.position].filter(Boolean).join(', '),
          })),
          { value: NEW, label: t('selectRecipient.contact.createNew') },
        ]}
        value={choice}
        clearable
        onChange={(v) =>
          onChange(v === null ? null : v === NEW ? { name: '' } : { name: '', ...contacts[Number(v)] })
        }
        data-testid="recipient-contact-choice"
      />
      {choice === NEW && value && (
        <SimpleGrid cols={{ base: 1, sm: 4 }} mt="sm">
          {FIELDS.map((f) => (
            <CommittedTextInput
              key={f}
              label={t(`selectRecipient.contact.${f}`)}
              value={value[f] ?? ''}
              onCommit={(v) => onChange({ ...value, [f]: v })}
              error={errorOf(`contact.${f}`)}
              data-testid={`recipient-contact-${f}`}
            />
          ))}
        </SimpleGrid>
      )}
    </Paper>
  );
}
