import type { RequestContent } from '@dossier/core';
import { Badge, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentAnswers } from '../../../ui/ContentAnswers';
import { ItemTypeForm } from '../../../ui/content/ItemTypeForm';
import { useRequestCommit } from '../requestApi';
import { Field, PartCard } from './PartCard';
import type { PartProps } from './types';

/**
 * The content of the request: what it asks, as the letter to the recipient prints it. The edit
 * covers all of it but which item types are asked: each item type's smart form answers, the
 * submitter's fields, field sets and files (with the wizard's form), additional questions and
 * instructions. An item type no longer configured shows its answers as submitted.
 */
export function ContentPart({ view, canEdit, editing, onEdit, onClose }: PartProps) {
  const { t } = useTranslation();
  const r = view.request;
  const c = r.content;
  const commit = useRequestCommit();
  const [draft, setDraft] = useState<RequestContent>(c);

  // The version the edit started from: changes shown live meanwhile must not make a stale save pass.
  const [baseVersion, setBaseVersion] = useState(r.version);

  function start() {
    setBaseVersion(r.version);
    setDraft(structuredClone(c));
    commit.clear();
    onEdit();
  }
  async function save() {
    if (await commit.savePart(r.requestNumber, 'content', baseVersion, draft)) onClose();
  }
  const e = commit.fields;
  return (
    <PartCard
      part="content"
      title={t('request.parts.content')}
      canEdit={canEdit}
      editing={editing}
      busy={commit.busy}
      onEdit={start}
      onSave={save}
      onCancel={onClose}
    >
      <Field
        label={t('request.content.itemTypes')}
        value={
          c.itemTypes.length > 0 ? (
            <Group gap={4} component="span">
              {c.itemTypes.map((i) => (
                <Badge
                  key={i.id}
                  variant="outline"
                  h="auto"
                  py={2}
                  style={{ textTransform: 'none' }}
                  styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
                >
                  {i.name || i.id}
                </Badge>
              ))}
            </Group>
          ) : (
            t('request.content.noItemTypes')
          )
        }
      />
      {editing ? (
        <>
          {draft.itemTypes.map((answer, i) => {
            const type = view.contentItemTypes.find((it) => it.id === answer.id);
            if (!type)
              return (
                <ContentAnswers
                  key={answer.id}
                  content={{ itemTypes: [answer] }}
                  itemTypes={[]}
                  testId="content-answers"
                />
              );
            return (
              <Stack key={answer.id} gap={4}>
                <Text fw={700}>{type.name}</Text>
                <ItemTypeForm
                  type={type}
                  answer={answer}
                  index={i}
                  onChange={(next) =>
                    setDraft((d) => ({ ...d, itemTypes: d.itemTypes.map((x, j) => (j === i ? next : x)) }))
                  }
                  // The server names the content part's fields without the `content.` of the wizard.
                  errorOf={(field) => e[field.replace(/^content\./, '')]}
                />
              </Stack>
            );
          })}
          {draft.additionalQuestions.map((q, i) => (
            <Textarea
              // biome-ignore lint/suspicious/noArrayIndexKey: the questions are fixed; only their text is edited
              key={i}
              label={`${t('request.content.additionalQuestions')} ${i + 1}`}
              value={q.text}
              required
              autosize
              onChange={(ev) => {
                const text = ev.currentTarget.value;
                setDraft((d) => ({
                  ...d,
                  additionalQuestions: d.additionalQuestions.map((x, j) => (j === i ? { text } : x)),
                }));
              }}
              error={e[`additionalQuestions.${i}.text`]}
            />
          ))}
          <Textarea
            label={t('request.content.additionalInstructions')}
            value={draft.additionalInstructions ?? ''}
            onChange={(ev) => setDraft({ ...draft, additionalInstructions: ev.currentTarget.value })}
            error={e.additionalInstructions}
            autosize
            minRows={2}
            data-testid="content-additionalInstructions"
          />
          <Textarea
            label={t('request.content.additionalInstructionsToHandler')}
            value={draft.additionalInstructionsToHandler ?? ''}
            onChange={(ev) => setDraft({ ...draft, additionalInstructionsToHandler: ev.currentTarget.value })}
            error={e.additionalInstructionsToHandler}
            autosize
            minRows={2}
          />
        </>
      ) : (
        <>
          <ContentAnswers content={c} itemTypes={view.contentItemTypes} testId="content-answers" />
          <Field label={t('request.content.additionalInstructions')} value={c.additionalInstructions} />
          <Field
            label={t('request.content.additionalInstructionsToHandler')}
            value={c.additionalInstructionsToHandler}
          />
        </>
      )}
    </PartCard>
  );
}
