import { type AdminPayeeView, createPayeeRoute, fieldErrorsOf, updatePayeeRoute } from '@dossier/core';
import { Anchor, Container, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { WebAddressInput } from '../../ui/directoryInputs';
import { FormActions } from '../../ui/forms/FormActions';
import { HistoryList } from '../../ui/forms/HistoryList';
import { ReadOnlyNotice } from '../../ui/forms/ReadOnlyNotice';
import { useFormPage } from '../../ui/forms/useFormPage';
import { FlagField } from '../../ui/UserFields';
import { definePage } from '../../view/page';

type Payee = AdminPayeeView['payee'];

/** /admin/payees/edit/{payeeId}; the foreign reference links to the entry in the other application. */
export const PayeeEditPage = definePage<AdminPayeeView>(({ view }) => {
  const { t } = useTranslation();
  const form = useFormPage<AdminPayeeView>();
  const p = view.payee;
  const disabled = !view.canEdit;
  // The rules of the body the server validates (the contract's), run on the form as it is.
  const clientErrors = fieldErrorsOf(updatePayeeRoute.body?.safeParse(p).error?.issues ?? []);
  const errorOf = (field: string) => form.errorOf(clientErrors, field);
  const set = <K extends keyof Payee>(field: K, value: Payee[K]) =>
    form.edit((v) => ({ ...v, payee: { ...v.payee, [field]: value } }), String(field));

  async function save() {
    await form.saveAndOpen(
      { create: createPayeeRoute, update: updatePayeeRoute, param: 'payeeId' },
      view.payeeId,
      view.payeeId ? p : { ...p, scope: view.scope },
      (saved) => saved.payeeId,
    );
  }

  const url = p.foreignReference?.url ?? '';
  return (
    <Container size="lg" data-testid="payee-page">
      <Title order={2} mb="md" data-testid="page-title">
        {view.title}
      </Title>
      <Stack>
        {disabled && <ReadOnlyNotice reason={view.readOnlyReason} />}
        <Paper withBorder p="md">
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {(['name', 'referenceNumber', 'email', 'bankAccount'] as const).map((field) => (
                <TextInput
                  key={field}
                  label={t(`admin.payees.fields.${field}`)}
                  value={p[field] ?? ''}
                  onChange={(e) => set(field, e.currentTarget.value)}
                  error={errorOf(field)}
                  required={field === 'name'}
                  disabled={disabled}
                  data-testid={`payee-${field}`}
                />
              ))}
              {!view.payeeId && view.scopes.length > 1 && (
                <Select
                  label={t('admin.payees.fields.scope')}
                  data={view.scopes.map((s) => ({ value: s.scopePath, label: `${s.name} (${s.scopePath})` }))}
                  value={view.scope}
                  onChange={(value) => form.edit((v) => ({ ...v, scope: value ?? v.scope }), 'scope')}
                  error={form.errorOf({}, 'scope')}
                  disabled={disabled}
                  data-testid="payee-scope"
                  allowDeselect={false}
                />
              )}
              <Select
                label={t('admin.payees.fields.currency')}
                data={view.currencies.map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` }))}
                value={p.currency || null}
                onChange={(value) => set('currency', value ?? '')}
                error={errorOf('currency')}
                required
                disabled={disabled}
                data-testid="payee-currency"
                allowDeselect={false}
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('admin.payees.fields.foreignReferenceLabel')}
                value={p.foreignReference?.label ?? ''}
                onChange={(e) => set('foreignReference', { label: e.currentTarget.value, url })}
                disabled={disabled}
                data-testid="payee-foreignReference-label"
              />
              <WebAddressInput
                label={t('admin.payees.fields.foreignReferenceUrl')}
                value={url}
                onChange={(value) =>
                  set('foreignReference', { label: p.foreignReference?.label ?? '', url: value })
                }
                error={errorOf('foreignReference.url')}
                disabled={disabled}
                data-testid="payee-foreignReference-url"
              />
            </SimpleGrid>
            {view.payeeId && p.foreignReference?.url && /^https?:\/\//i.test(p.foreignReference.url) && (
              <Text size="sm">
                {t('admin.payees.foreignReference')}:{' '}
                <Anchor
                  href={p.foreignReference.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="payee-foreign-link"
                >
                  {p.foreignReference.label || p.foreignReference.url}
                </Anchor>
              </Text>
            )}
            <FlagField
              label={t('admin.disabled')}
              checked={p.disabled}
              disabled={disabled}
              testId="payee-disabled"
              onChange={(v) => set('disabled', v)}
            />
          </Stack>
        </Paper>
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
