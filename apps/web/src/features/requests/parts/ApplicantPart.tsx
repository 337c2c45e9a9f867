import { APPLICANT_REFERENCE_TYPES, type Applicant, countryName } from '@dossier/core';
import { Anchor, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../ui/DateField';
import { formatDate } from '../../../ui/dates';
import { AddressTextarea, CountrySelect } from '../../../ui/directoryInputs';
import { FileField } from '../../../ui/files/FileField';
import { useRequestCommit } from '../requestApi';
import { Field, PartCard } from './PartCard';
import type { PartProps } from './types';

const TEXT_FIELDS = ['phone', 'email'] as const;
const REFERENCES = [
  ['reference1', 'reference1Type'],
  ['reference2', 'reference2Type'],
] as const;

function FileLink({ file }: { file: Applicant['authority'] }) {
  if (!file?.key) return null;
  return (
    <Anchor href={`/files/${encodeURIComponent(file.key)}`} target="_blank" size="sm">
      {file.name ?? file.key}
    </Anchor>
  );
}

/** The applicant ("subject") of the request. */
export function ApplicantPart({ view, canEdit, editing, onEdit, onClose }: PartProps) {
  const { t } = useTranslation();
  const r = view.request;
  const a = r.applicant;
  const commit = useRequestCommit();
  const [draft, setDraft] = useState<Applicant>(a);
  const set = <K extends keyof Applicant>(key: K, value: Applicant[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  // The version the edit started from: changes shown live meanwhile must not make a stale save pass.
  const [baseVersion, setBaseVersion] = useState(r.version);

  function start() {
    setBaseVersion(r.version);
    setDraft({ ...a });
    commit.clear();
    onEdit();
  }
  async function save() {
    if (await commit.savePart(r.requestNumber, 'applicant', baseVersion, draft)) onClose();
  }
  const e = commit.fields;
  const referenceTypes = APPLICANT_REFERENCE_TYPES.map((v) => ({
    value: v,
    label: t(`wizard.referenceTypes.${v}`),
  }));
  // The type's label before the reference ("Claim Number CLM-88125"), never the stored key.
  const reference = (value: string | null | undefined, type: string | null | undefined) =>
    [type ? (referenceTypes.find((r) => r.value === type)?.label ?? type) : '', value ?? '']
      .filter(Boolean)
      .join(' ');
  return (
    <PartCard
      part="applicant"
      title={t('request.parts.applicant')}
      canEdit={canEdit}
      editing={editing}
      busy={commit.busy}
      onEdit={start}
      onSave={save}
      onCancel={onClose}
    >
      {editing ? (
        <>
          <TextInput
            label={t('request.applicant.name')}
            required
            value={draft.name}
            onChange={(ev) => set('name', ev.currentTarget.value)}
            error={e.name}
            data-testid="applicant-name"
          />
          <DateField
            label={t('request.applicant.dateOfBirth')}
            required
            value={draft.dateOfBirth}
            onChange={(v) => set('dateOfBirth', v)}
            past
            invalidMessage={t('request.applicant.dateOfBirthInvalid')}
            error={e.dateOfBirth}
          />
          <SimpleGrid cols={2} spacing="xs">
            {TEXT_FIELDS.map((key) => (
              <TextInput
                key={key}
                label={t(`request.applicant.${key}`)}
                value={draft[key] ?? ''}
                onChange={(ev) => set(key, ev.currentTarget.value)}
                error={e[key]}
                data-testid={`applicant-${key}`}
              />
            ))}
            <CountrySelect
              label={t('request.applicant.country')}
              required
              value={draft.country}
              onChange={(code) => set('country', code)}
              error={e.country}
              data-testid="applicant-country"
            />
            {REFERENCES.map(([key, typeKey]) => [
              <TextInput
                key={key}
                label={t(`request.applicant.${key}`)}
                value={draft[key] ?? ''}
                maxLength={100}
                onChange={(ev) => set(key, ev.currentTarget.value)}
                error={e[key]}
                data-testid={`applicant-${key}`}
              />,
              <Select
                key={typeKey}
                label={t(`wizard.applicant.${typeKey}`)}
                data={referenceTypes}
                value={draft[typeKey] ?? null}
                onChange={(v) => set(typeKey, v)}
                clearable
                data-testid={`applicant-${typeKey}`}
              />,
            ])}
          </SimpleGrid>
          <AddressTextarea
            label={t('request.applicant.address')}
            value={draft.address}
            onChange={(v) => set('address', v)}
            error={e.address}
            data-testid="applicant-address"
          />
          <FileField
            label={t('request.applicant.authority')}
            value={draft.authority ?? null}
            onChange={(v) => set('authority', v)}
            error={e.authority}
          />
        </>
      ) : (
        <>
          <Field label={t('request.applicant.name')} value={a.name} testId="applicant-name-value" />
          <Field
            label={t('request.applicant.dateOfBirth')}
            value={a.dateOfBirth ? formatDate(a.dateOfBirth) : ''}
          />
          <Field label={t('request.applicant.phone')} value={a.phone} />
          <Field label={t('request.applicant.email')} value={a.email} />
          <Field label={t('request.applicant.address')} value={a.address} />
          <Field
            label={t('request.applicant.country')}
            value={countryName(a.country)}
            testId="applicant-country-value"
          />
          <Field
            label={t('request.applicant.reference1')}
            value={reference(a.reference1, a.reference1Type)}
            testId="applicant-reference1-value"
          />
          {a.reference2 && (
            <Field
              label={t('request.applicant.reference2')}
              value={reference(a.reference2, a.reference2Type)}
            />
          )}
          <Field label={t('request.applicant.authority')} value={<FileLink file={a.authority} />} />
        </>
      )}
    </PartCard>
  );
}
