import type { Sender } from '@dossier/core';
import { Select, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRequestCommit } from '../requestApi';
import { Field, PartCard } from './PartCard';
import type { PartProps } from './types';

/** The sender organisation (fixed once submitted), on-behalf-of, reference and external references. */
export function SenderPart({ view, canEdit, editing, onEdit, onClose }: PartProps) {
  const { t } = useTranslation();
  const r = view.request;
  const s = r.sender;
  const commit = useRequestCommit();
  const [draft, setDraft] = useState<Sender>(s);
  const [refs, setRefs] = useState('');

  // The version the edit started from: changes shown live meanwhile must not make a stale save pass.
  const [baseVersion, setBaseVersion] = useState(r.version);

  function start() {
    setBaseVersion(r.version);
    setDraft({ ...s });
    setRefs(s.externalUserReferences.join('\n'));
    commit.clear();
    onEdit();
  }
  async function save() {
    const data: Sender = {
      organization: s.organization,
      submittedOnBehalfOf: draft.submittedOnBehalfOf || null,
      referenceNumber: draft.referenceNumber || null,
      externalUserReferences: refs
        .split('\n')
        .map((x) => x.trim())
        .filter(Boolean),
    };
    if (await commit.savePart(r.requestNumber, 'sender', baseVersion, data)) onClose();
  }
  const e = commit.fields;
  // The submitters of the organisation by name, as in the wizard; the current one stays offered.
  const choices = view.lookups.submitters ?? [];
  const submitterChoices = [
    ...(s.submittedOnBehalfOf && !choices.some((c) => c.id === s.submittedOnBehalfOf)
      ? [{ value: s.submittedOnBehalfOf, label: s.submittedOnBehalfOfDisplayName ?? s.submittedOnBehalfOf }]
      : []),
    ...choices.map((c) => ({ value: c.id, label: `${c.name} (${c.id})` })),
  ];
  return (
    <PartCard
      part="sender"
      title={t('request.parts.sender')}
      canEdit={canEdit}
      editing={editing}
      busy={commit.busy}
      onEdit={start}
      onSave={save}
      onCancel={onClose}
    >
      <Field label={t('request.sender.organization')} value={s.organizationName ?? s.organization} />
      {editing ? (
        <>
          <Select
            label={t('request.sender.submittedOnBehalfOf')}
            data={submitterChoices}
            value={draft.submittedOnBehalfOf ?? null}
            onChange={(id) => setDraft({ ...draft, submittedOnBehalfOf: id })}
            searchable
            clearable
            error={e.submittedOnBehalfOf}
            data-testid="sender-submittedOnBehalfOf"
          />
          <TextInput
            label={t('request.sender.referenceNumber')}
            value={draft.referenceNumber ?? ''}
            onChange={(ev) => setDraft({ ...draft, referenceNumber: ev.currentTarget.value })}
            error={e.referenceNumber}
            data-testid="sender-referenceNumber"
          />
          <Textarea
            label={t('request.sender.externalUserReferences')}
            description={t('request.sender.externalUserReferencesHint')}
            value={refs}
            onChange={(ev) => setRefs(ev.currentTarget.value)}
            error={e.externalUserReferences}
            autosize
            minRows={2}
          />
          {e.organization && <Field label="" value={e.organization} />}
        </>
      ) : (
        <>
          <Field
            label={t('request.sender.submittedOnBehalfOf')}
            value={s.submittedOnBehalfOfDisplayName ?? s.submittedOnBehalfOf}
          />
          <Field
            label={t('request.sender.referenceNumber')}
            value={s.referenceNumber}
            testId="sender-reference"
          />
          <Field
            label={t('request.sender.externalUserReferences')}
            value={s.externalUserReferences.join(', ')}
          />
        </>
      )}
    </PartCard>
  );
}
