import type { Applicant } from '@dossier/core';
import { Anchor, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../ui/dates';
import { FileField } from '../../../ui/files/FileField';
import { DateField } from '../../wizard/DateField';
import { useRequestCommit } from '../requestApi';
import { Field, PartCard } from './PartCard';
import type { PartProps } from './types';

const TEXT_FIELDS = ['phone', 'email', 'country', 'reference1', 'reference2'] as const;

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
              />
            ))}
          </SimpleGrid>
          <Textarea
            label={t('request.applicant.address')}
            value={draft.address ?? ''}
            onChange={(ev) => set('address', ev.currentTarget.value)}
            autosize
            minRows={2}
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
            label={t('request.applicant.reference1')}
            value={[a.reference1Type, a.reference1].filter(Boolean).join(' ')}
          />
          <Field label={t('request.applicant.authority')} value={<FileLink file={a.authority} />} />
        </>
      )}
    </PartCard>
  );
}
