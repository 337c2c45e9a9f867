import {
  APPLICANT_REFERENCE_TYPES,
  type ApplicantHit,
  applicantSearchRoute,
  type DraftData,
  parseLocaleDate,
} from '@dossier/core';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';
import { DateField } from '../../ui/DateField';
import { formatDate } from '../../ui/dates';
import { AddressTextarea, CountrySelect } from '../../ui/directoryInputs';
import { FileField } from '../../ui/files/FileField';
import { StepSearch } from './StepSearch';
import type { WizardDraft } from './useWizardDraft';

/** The applicant as the draft holds it: any field missing, or undefined. */
type ApplicantDraft = NonNullable<DraftData['applicant']>;
const TEXT_FIELDS = ['phone', 'email'] as const;

/** Applicant: find an earlier applicant of the organisation, or fill the form; Clear Form goes back. */
export function ApplicantStep(props: { draft: WizardDraft; errorOf(field: string): string | undefined }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const { draft, errorOf } = props;
  const a: ApplicantDraft = draft.data.applicant ?? {};
  const organization = draft.data.sender?.organization ?? '';
  const defaults = draft.senderData?.applicant;
  const [mode, setMode] = useState<'search' | 'form'>(a.name ? 'form' : 'search');
  const set = (change: ApplicantDraft) =>
    draft.update((d) => ({ ...d, applicant: { ...d.applicant, ...change } }));
  const referenceTypes = APPLICANT_REFERENCE_TYPES.map((v) => ({
    value: v,
    label: t(`wizard.referenceTypes.${v}`),
  }));

  if (mode === 'search') {
    return (
      <StepSearch<ApplicantHit>
        title={t('wizard.applicant.searchTitle')}
        testId="applicant-search"
        fields={[
          { name: 'name', label: t('wizard.applicant.name') },
          { name: 'dateOfBirth', label: t('wizard.applicant.dateOfBirth'), placeholder: 'DD/MM/YYYY' },
          { name: 'reference', label: t('wizard.applicant.reference') },
        ]}
        search={({ dateOfBirth, ...terms }) =>
          api.call(applicantSearchRoute, {
            params: { organization },
            query: {
              ...terms,
              ...(dateOfBirth && { dateOfBirth: parseLocaleDate(dateOfBirth, { past: true }) ?? '' }),
            },
          })
        }
        columns={[
          { label: t('wizard.applicant.name'), render: (h) => h.name },
          { label: t('wizard.applicant.dateOfBirth'), render: (h) => formatDate(h.dateOfBirth) },
          { label: t('wizard.applicant.reference1'), render: (h) => h.reference1 },
          { label: t('wizard.applicant.lastRequest'), render: (h) => h.lastRequestNumber },
        ]}
        onPick={({ lastRequestNumber: _n, ...hit }) => {
          set({ ...hit, authority: a.authority ?? defaults?.preLoadedApplicantAuthority ?? null });
          setMode('form');
        }}
        onEnterNew={(terms) => {
          set({
            name: terms.name?.trim() ?? '',
            dateOfBirth: parseLocaleDate(terms.dateOfBirth ?? '', { past: true }) ?? null,
            reference1: terms.reference?.trim() || null,
            country: a.country ?? 'AU',
          });
          setMode('form');
        }}
      />
    );
  }

  return (
    <Paper withBorder p="md" data-testid="applicant-form">
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('wizard.applicant.name')}
            required
            value={a.name ?? ''}
            maxLength={300}
            onChange={(e) => set({ name: e.currentTarget.value })}
            error={errorOf('applicant.name')}
            data-testid="applicant-name"
          />
          <DateField
            label={t('wizard.applicant.dateOfBirth')}
            required
            value={a.dateOfBirth}
            onChange={(dateOfBirth) => set({ dateOfBirth })}
            past
            invalidMessage={t('wizard.invalidDate')}
            error={errorOf('applicant.dateOfBirth')}
            data-testid="applicant-dateOfBirth"
          />
          {TEXT_FIELDS.map((field) => (
            <TextInput
              key={field}
              label={t(`wizard.applicant.${field}`)}
              value={a[field] ?? ''}
              onChange={(e) => set({ [field]: e.currentTarget.value })}
              error={errorOf(`applicant.${field}`)}
              data-testid={`applicant-${field}`}
            />
          ))}
          <CountrySelect
            label={t('wizard.applicant.country')}
            required
            value={a.country}
            onChange={(country) => set({ country })}
            error={errorOf('applicant.country')}
            data-testid="applicant-country"
          />
          <AddressTextarea
            label={t('wizard.applicant.address')}
            value={a.address}
            onChange={(address) => set({ address })}
            minRows={1}
            data-testid="applicant-address"
          />
          <TextInput
            label={t('wizard.applicant.reference1')}
            {...(defaults?.reference1IsRequired !== undefined && { required: defaults.reference1IsRequired })}
            value={a.reference1 ?? ''}
            maxLength={100}
            onChange={(e) => set({ reference1: e.currentTarget.value })}
            error={errorOf('applicant.reference1')}
            data-testid="applicant-reference1"
          />
          <Select
            label={t('wizard.applicant.reference1Type')}
            data={referenceTypes}
            value={a.reference1Type ?? null}
            onChange={(reference1Type) => set({ reference1Type })}
            clearable
            data-testid="applicant-reference1Type"
          />
          <TextInput
            label={t('wizard.applicant.reference2')}
            value={a.reference2 ?? ''}
            maxLength={100}
            onChange={(e) => set({ reference2: e.currentTarget.value })}
            data-testid="applicant-reference2"
          />
          <Select
            label={t('wizard.applicant.reference2Type')}
            data={referenceTypes}
            value={a.reference2Type ?? null}
            onChange={(reference2Type) => set({ reference2Type })}
            clearable
            data-testid="applicant-reference2Type"
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FileField
            label={`${t('wizard.applicant.authority')} *`}
            value={a.authority ?? null}
            onChange={(authority) => set({ authority })}
            error={errorOf('applicant.authority')}
            testId="applicant-authority"
          />
          <FileField
            label={t('wizard.applicant.application')}
            value={a.application ?? null}
            onChange={(application) => set({ application })}
            error={errorOf('applicant.application')}
            testId="applicant-application"
          />
        </SimpleGrid>
        {defaults?.preLoadedApplicantAuthority &&
          a.authority?.key === defaults.preLoadedApplicantAuthority.key && (
            <Alert color="blue">{t('wizard.applicant.preLoaded')}</Alert>
          )}
        <Textarea
          label={t('wizard.applicant.notes')}
          value={a.notes ?? ''}
          onChange={(e) => set({ notes: e.currentTarget.value })}
          autosize
          minRows={2}
          data-testid="applicant-notes"
        />
        <Group justify="flex-end">
          <Button
            variant="subtle"
            color="red"
            onClick={() => {
              draft.update((d) => ({
                ...d,
                applicant: { reference1Type: defaults?.reference1Type ?? null },
              }));
              setMode('search');
            }}
            data-testid="applicant-clear"
          >
            {t('wizard.clearForm')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
