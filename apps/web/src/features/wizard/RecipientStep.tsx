import { type DraftData, type RecipientHit, recipientSearchRoute } from '@dossier/core';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';
import { AddressTextarea, CountrySelect, WebAddressInput } from '../../ui/directoryInputs';
import { StepSearch } from './StepSearch';
import { newRecipientFromSearch } from './senderDefaults';
import type { WizardDraft } from './useWizardDraft';

/** The recipient as the draft holds it: any field missing, or undefined. */
type RecipientDraft = NonNullable<DraftData['recipient']>;
const TEXT_FIELDS = ['name', 'phone', 'fax', 'email'] as const;

/**
 * Recipient: pick one from the recipients directory or enter a new one (filled from the search
 * terms, the email only when it is a valid address); Clear Form goes back to the search.
 */
export function RecipientStep(props: { draft: WizardDraft; errorOf(field: string): string | undefined }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const { draft, errorOf } = props;
  const r: RecipientDraft = draft.data.recipient ?? {};
  const [mode, setMode] = useState<'search' | 'form'>(r.name ? 'form' : 'search');
  const replace = (next: RecipientDraft) => draft.update((d) => ({ ...d, recipient: next }));
  const set = (change: RecipientDraft) =>
    draft.update((d) => ({ ...d, recipient: { ...d.recipient, ...change } }));
  const tags = draft.senderData?.recipient.tags ?? [];

  if (mode === 'search') {
    return (
      <StepSearch<RecipientHit>
        title={t('wizard.recipient.searchTitle')}
        testId="recipient-search"
        fields={['name', 'phone', 'address', 'email'].map((name) => ({
          name,
          label: t(`wizard.recipient.${name}`),
        }))}
        search={(terms) => api.call(recipientSearchRoute, { query: { ...terms, pageSize: 10 } })}
        columns={[
          { label: t('wizard.recipient.name'), render: (h) => h.name },
          { label: t('wizard.recipient.phone'), render: (h) => h.phone },
          { label: t('wizard.recipient.email'), render: (h) => h.email },
          {
            label: t('wizard.recipient.address'),
            render: (h) => `${h.address ?? ''}${h.disabled ? ` (${t('wizard.recipient.disabled')})` : ''}`,
          },
        ]}
        isDisabled={(h) => h.disabled}
        onPick={({ address: _a, disabled: _d, ...hit }) => {
          replace(hit);
          setMode('form');
        }}
        onEnterNew={(terms) => {
          replace(newRecipientFromSearch(terms, draft.senderData?.recipient.country ?? 'AU'));
          setMode('form');
        }}
      />
    );
  }

  const contacts = r.contacts ?? [];
  return (
    <Paper withBorder p="md" data-testid="recipient-form">
      <Stack>
        <Alert color={r.recipientId ? 'blue' : 'gray'} data-testid="recipient-state">
          {r.recipientId
            ? t('wizard.recipient.fromDirectory', { version: r.version })
            : t('wizard.recipient.isNew')}
        </Alert>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {TEXT_FIELDS.map((field) => (
            <TextInput
              key={field}
              label={t(`wizard.recipient.${field}`)}
              required={field === 'name' || field === 'phone'}
              value={r[field] ?? ''}
              onChange={(e) => set({ [field]: e.currentTarget.value })}
              error={errorOf(`recipient.${field}`)}
              data-testid={`recipient-${field}`}
            />
          ))}
          <WebAddressInput
            label={t('wizard.recipient.webSiteUrl')}
            value={r.webSiteUrl}
            onChange={(webSiteUrl) => set({ webSiteUrl })}
            error={errorOf('recipient.webSiteUrl')}
            data-testid="recipient-webSiteUrl"
          />
          <CountrySelect
            label={t('wizard.recipient.country')}
            value={r.country}
            onChange={(country) => set({ country })}
            error={errorOf('recipient.country')}
            data-testid="recipient-country"
          />
          {tags.map((tag) => (
            <Select
              key={tag.id}
              label={tag.name}
              data={tag.values}
              value={r.tags?.[tag.id] ?? null}
              clearable
              onChange={(value) => {
                const next = { ...r.tags };
                if (value) next[tag.id] = value;
                else delete next[tag.id];
                set({ tags: next });
              }}
              error={errorOf(`recipient.tags.${tag.id}`)}
              data-testid={`recipient-tag-${tag.id}`}
            />
          ))}
          {contacts.length > 0 && (
            <Select
              label={t('wizard.recipient.contact')}
              placeholder={t('wizard.recipient.noContact')}
              data={contacts.map((c, i) => ({
                value: String(i),
                label: c.position ? `${c.name} (${c.position})` : c.name,
              }))}
              value={r.contact ? String(contacts.findIndex((c) => c.name === r.contact?.name)) : null}
              onChange={(value) => set({ contact: value === null ? null : contacts[Number(value)] })}
              clearable
              data-testid="recipient-contact"
            />
          )}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {(['streetAddress', 'postalAddress'] as const).map((field) => (
            <AddressTextarea
              key={field}
              label={t(`wizard.recipient.${field}`)}
              value={r[field]}
              onChange={(value) => set({ [field]: value })}
              data-testid={`recipient-${field}`}
            />
          ))}
        </SimpleGrid>
        <Textarea
          label={t('wizard.recipient.notes')}
          value={r.notes ?? ''}
          onChange={(e) => set({ notes: e.currentTarget.value })}
          autosize
          minRows={2}
          data-testid="recipient-notes"
        />
        <Group justify="flex-end">
          <Button
            variant="subtle"
            color="red"
            onClick={() => {
              replace({});
              setMode('search');
            }}
            data-testid="recipient-clear"
          >
            {t('wizard.clearForm')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
