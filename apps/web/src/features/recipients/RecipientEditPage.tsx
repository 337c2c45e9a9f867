import {
  type AdminRecipientView,
  createRecipientRoute,
  fieldErrorsOf,
  updateRecipientRoute,
} from '@dossier/core';
import { Container, Paper, Select, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AddressTextarea, CountrySelect, WebAddressInput } from '../../ui/directoryInputs';
import { FileListField } from '../../ui/files/FileField';
import { FormActions } from '../../ui/forms/FormActions';
import { HistoryList } from '../../ui/forms/HistoryList';
import { ReadOnlyNotice } from '../../ui/forms/ReadOnlyNotice';
import { useFormPage } from '../../ui/forms/useFormPage';
import { FlagField } from '../../ui/UserFields';
import { definePage } from '../../view/page';
import { ContactsEditor } from './ContactsEditor';

type Recipient = AdminRecipientView['recipient'];
const TEXT_FIELDS = ['name', 'phone', 'fax', 'email'] as const;

/** /admin/recipients/edit/{recipientId}: the recipient form; every save is a new version. */
export const RecipientEditPage = definePage<AdminRecipientView>(({ view }) => {
  const { t } = useTranslation();
  const form = useFormPage<AdminRecipientView>();
  const r = view.recipient;
  const disabled = !view.canEdit;
  // The rules of the body the server validates (the contract's), run on the form as it is.
  const clientErrors = fieldErrorsOf(updateRecipientRoute.body?.safeParse(r).error?.issues ?? []);
  const errorOf = (field: string) => form.errorOf(clientErrors, field);
  const set = <K extends keyof Recipient>(field: K, value: Recipient[K]) =>
    form.edit((v) => ({ ...v, recipient: { ...v.recipient, [field]: value } }), String(field));

  async function save() {
    await form.saveAndOpen(
      { create: createRecipientRoute, update: updateRecipientRoute, param: 'recipientId' },
      view.recipientId,
      r,
      (saved) => saved.recipientId,
    );
  }

  return (
    <Container size="lg" data-testid="recipient-page">
      <Title order={2} mb="md" data-testid="page-title">
        {view.title}
      </Title>
      <Stack>
        {disabled && <ReadOnlyNotice reason={view.readOnlyReason} />}
        <Paper withBorder p="md">
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {TEXT_FIELDS.map((field) => (
                <TextInput
                  key={field}
                  label={t(`admin.recipients.fields.${field}`)}
                  value={r[field] ?? ''}
                  onChange={(e) => set(field, e.currentTarget.value)}
                  error={errorOf(field)}
                  required={field === 'name' || field === 'phone'}
                  disabled={disabled}
                  data-testid={`recipient-${field}`}
                />
              ))}
              <WebAddressInput
                label={t('admin.recipients.fields.webSiteUrl')}
                value={r.webSiteUrl}
                onChange={(value) => set('webSiteUrl', value)}
                error={errorOf('webSiteUrl')}
                disabled={disabled}
                data-testid="recipient-webSiteUrl"
              />
              <CountrySelect
                label={t('admin.recipients.fields.country')}
                value={r.country}
                onChange={(value) => set('country', value ?? '')}
                error={errorOf('country')}
                disabled={disabled}
                data-testid="recipient-country"
              />
              {Object.values(r.tags).map((tag) => (
                <Select
                  key={tag.id}
                  label={tag.name}
                  data={tag.values}
                  value={tag.value ?? null}
                  // A required tag offers no empty choice.
                  clearable={!tag.isRequired}
                  allowDeselect={!tag.isRequired}
                  required={tag.isRequired}
                  onChange={(value) => set('tags', { ...r.tags, [tag.id]: { ...tag, value } })}
                  error={errorOf(`tags.${tag.id}`)}
                  disabled={disabled}
                  data-testid={`recipient-tag-${tag.id}`}
                />
              ))}
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {(['streetAddress', 'postalAddress'] as const).map((field) => (
                <AddressTextarea
                  key={field}
                  label={t(`admin.recipients.fields.${field}`)}
                  value={r[field]}
                  onChange={(value) => set(field, value)}
                  disabled={disabled}
                  data-testid={`recipient-${field}`}
                />
              ))}
            </SimpleGrid>
            <Textarea
              label={t('admin.recipients.fields.notes')}
              value={r.notes ?? ''}
              onChange={(e) => set('notes', e.currentTarget.value)}
              autosize
              minRows={2}
              disabled={disabled}
              data-testid="recipient-notes"
            />
            <FileListField
              label={t('admin.recipients.fields.attachments')}
              value={r.attachments.map((a) => ({ key: a.key, name: a.name ?? undefined }))}
              onChange={(files) =>
                set(
                  'attachments',
                  files.map(({ key, name }) => ({ key, name: name ?? null })),
                )
              }
              disabled={disabled}
              error={errorOf('attachments')}
              testId="recipient-attachments"
            />
            <FlagField
              label={t('admin.disabled')}
              checked={r.disabled}
              disabled={disabled}
              testId="recipient-disabled"
              onChange={(v) => set('disabled', v)}
            />
          </Stack>
        </Paper>
        <ContactsEditor
          contacts={r.contacts}
          disabled={disabled}
          errorOf={errorOf}
          onChange={(contacts) => set('contacts', contacts)}
        />
        <FormActions
          form={form}
          canSave={!disabled && form.dirty && Object.keys(clientErrors).length === 0}
          onSave={() => void save()}
        />
        <HistoryList entries={view.history} />
      </Stack>
    </Container>
  );
});
