import type { RecipientContact } from '@dossier/core';
import { ActionIcon, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export interface ContactsEditorProps {
  contacts: RecipientContact[];
  disabled: boolean;
  errorOf(field: string): string | undefined;
  onChange(contacts: RecipientContact[]): void;
}

/** Contacts of a recipient; one without a name is dropped when saving. */
export function ContactsEditor({ contacts, disabled, errorOf, onChange }: ContactsEditorProps) {
  const { t } = useTranslation();
  const set = (index: number, field: keyof RecipientContact, value: string) =>
    onChange(contacts.map((c, i) => (i === index ? { ...c, [field]: value } : c)));
  return (
    <Paper withBorder p="md" data-testid="contacts">
      <Group justify="space-between" mb="sm">
        <Title order={4}>{t('admin.recipients.contacts.title')}</Title>
        <Button
          size="xs"
          variant="light"
          disabled={disabled}
          onClick={() => onChange([...contacts, { name: '' }])}
          data-testid="contact-add"
        >
          {t('admin.recipients.contacts.add')}
        </Button>
      </Group>
      <Stack>
        {contacts.length === 0 && <Text c="dimmed">{t('admin.recipients.contacts.none')}</Text>}
        {contacts.map((contact, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: contacts have no id of their own
          <Group key={index} align="flex-start" wrap="nowrap" data-testid="contact">
            <SimpleGrid cols={{ base: 1, sm: 4 }} style={{ flex: 1 }}>
              {(['name', 'position', 'phone', 'email'] as const).map((field) => (
                <TextInput
                  key={field}
                  label={t(`admin.recipients.contacts.${field}`)}
                  value={contact[field] ?? ''}
                  onChange={(e) => set(index, field, e.currentTarget.value)}
                  error={errorOf(`contacts.${index}.${field}`)}
                  description={
                    field === 'name' && !contact.name?.trim()
                      ? t('admin.recipients.contacts.dropped')
                      : undefined
                  }
                  disabled={disabled}
                  data-testid={`contact-${field}`}
                />
              ))}
            </SimpleGrid>
            <ActionIcon
              mt={24}
              variant="subtle"
              color="red"
              disabled={disabled}
              aria-label={t('admin.recipients.contacts.remove')}
              onClick={() => onChange(contacts.filter((_, i) => i !== index))}
              data-testid="contact-remove"
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
