import { type RecipientHit, type RecipientState, type RequestRecipient, recipientState } from '@dossier/core';
import {
  Badge,
  Box,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FileListField } from '../../ui/files/FileField';
import { ContactChoice } from './ContactChoice';

const TEXT_FIELDS = ['name', 'phone', 'fax', 'email', 'webSiteUrl', 'country'] as const;
const LONG_FIELDS = ['streetAddress', 'postalAddress', 'notes'] as const;
const STATE_COLOURS: Record<RecipientState, string> = { new: 'blue', updated: 'orange', unchanged: 'gray' };

export function RecipientStateBadge({ state }: { state: RecipientState }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATE_COLOURS[state]} data-testid="recipient-state" data-state={state}>
      {t(`selectRecipient.state.${state}`)}
    </Badge>
  );
}

/** The recipient being chosen: the picked directory entry (or a new one) as it will be saved. */
export function RecipientForm({
  value,
  picked,
  errors,
  saving,
  onChange,
  onSave,
  onCancel,
}: {
  value: RequestRecipient;
  /** The directory entry it was picked from: the state compares against it. */
  picked: RecipientHit | undefined;
  errors: Record<string, string>;
  saving: boolean;
  onChange(value: RequestRecipient): void;
  onSave(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const set = <K extends keyof RequestRecipient>(field: K, v: RequestRecipient[K]) =>
    onChange({ ...value, [field]: v });
  const missing = !value.name.trim() || !value.phone.trim();
  return (
    <Stack data-testid="recipient-form">
      <Paper withBorder p="md">
        <Group justify="space-between" mb="sm">
          <Title order={4}>{t('selectRecipient.form.title')}</Title>
          <RecipientStateBadge state={recipientState(value, picked)} />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {TEXT_FIELDS.map((f) => (
            <TextInput
              key={f}
              label={t(`selectRecipient.form.${f}`)}
              value={value[f] ?? ''}
              onChange={(e) => set(f, e.currentTarget.value)}
              required={f === 'name' || f === 'phone'}
              error={errors[f]}
              data-testid={`recipient-${f}`}
            />
          ))}
          {LONG_FIELDS.map((f) => (
            <Textarea
              key={f}
              label={t(`selectRecipient.form.${f}`)}
              value={value[f] ?? ''}
              onChange={(e) => set(f, e.currentTarget.value)}
              autosize
              minRows={2}
              error={errors[f]}
              data-testid={`recipient-${f}`}
            />
          ))}
        </SimpleGrid>
        <Box mt="sm">
          <FileListField
            label={t('selectRecipient.form.attachments')}
            value={value.attachments.map((a) => ({ key: a.key, name: a.name ?? undefined }))}
            onChange={(files) =>
              set(
                'attachments',
                files.map(({ key, name }) => ({ key, name })),
              )
            }
            error={errors.attachments}
            testId="recipient-attachments"
          />
        </Box>
      </Paper>
      <ContactChoice
        contacts={value.contacts}
        value={value.contact}
        errorOf={(f) => errors[f]}
        onChange={(contact) => set('contact', contact)}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} data-testid="recipient-cancel">
          {t('selectRecipient.cancel')}
        </Button>
        <Button onClick={onSave} loading={saving} disabled={saving || missing} data-testid="recipient-save">
          {t('selectRecipient.save')}
        </Button>
      </Group>
    </Stack>
  );
}
