import type { ContentDraft, RequestContent, WizardItemType } from '@dossier/core';
import { Alert, Button, Checkbox, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ItemTypeForm } from '../../ui/content/ItemTypeForm';
import { FileListField } from '../../ui/files/FileField';
import { emptyItemAnswer } from './senderDefaults';
import type { WizardDraft } from './useWizardDraft';

type ErrorOf = (field: string) => string | undefined;

/** Content: the item types with their forms, additional questions, instructions and files. */
export function ContentStep(props: { draft: WizardDraft; errorOf: ErrorOf }) {
  const { t } = useTranslation();
  const { draft, errorOf } = props;
  const content: ContentDraft = draft.data.content ?? {};
  const chosen = content.itemTypes ?? [];
  const questions = content.additionalQuestions ?? [];
  const set = (change: Partial<RequestContent>) =>
    draft.update((d) => ({ ...d, content: { ...d.content, ...change } }));
  const categories = draft.senderData?.requestItemCategories ?? [];

  function toggle(type: WizardItemType, on: boolean) {
    set({
      itemTypes: on
        ? [...chosen, emptyItemAnswer(type.id, type.name)]
        : chosen.filter((a) => a.id !== type.id),
    });
  }

  return (
    <Stack data-testid="wizard-content">
      <Paper withBorder p="md">
        <Stack>
          <Title order={5}>{t('wizard.content.itemTypes')}</Title>
          {categories.length === 0 && <Alert color="yellow">{t('wizard.content.noItemTypes')}</Alert>}
          {errorOf('content.itemTypes') && (
            <Text c="red" size="sm" data-testid="content-itemTypes-error">
              {errorOf('content.itemTypes')}
            </Text>
          )}
          {categories.map((category) => (
            <Stack key={category.name} gap="xs">
              {categories.length > 1 && <Text fw={600}>{category.name}</Text>}
              {category.itemTypes.map((type) => {
                const index = chosen.findIndex((a) => a.id === type.id);
                const answer = chosen[index];
                return (
                  <Stack key={type.id} gap="xs">
                    <Checkbox
                      label={type.name}
                      checked={index >= 0}
                      onChange={(e) => toggle(type, e.currentTarget.checked)}
                      data-testid={`item-${type.id}`}
                    />
                    {answer && (
                      <ItemTypeForm
                        type={type}
                        answer={answer}
                        index={index}
                        errorOf={errorOf}
                        onChange={(answer) =>
                          set({ itemTypes: chosen.map((a, i) => (i === index ? answer : a)) })
                        }
                      />
                    )}
                  </Stack>
                );
              })}
            </Stack>
          ))}
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Title order={5}>{t('wizard.content.additionalQuestions')}</Title>
          {questions.map((q, i) => (
            <Group key={`question-${i.toString()}`} align="flex-start" wrap="nowrap">
              <Textarea
                style={{ flex: 1 }}
                label={t('wizard.content.question', { n: i + 1 })}
                required
                autosize
                minRows={1}
                maxLength={10_000}
                value={q.text}
                onChange={(e) => {
                  const text = e.currentTarget.value;
                  set({ additionalQuestions: questions.map((x, j) => (j === i ? { text } : x)) });
                }}
                error={errorOf(`content.additionalQuestions.${i}.text`)}
                data-testid={`additional-question-${i}`}
              />
              <Button
                mt={24}
                variant="subtle"
                color="red"
                onClick={() => set({ additionalQuestions: questions.filter((_, j) => j !== i) })}
              >
                {t('wizard.content.removeQuestion')}
              </Button>
            </Group>
          ))}
          <Group>
            <Button
              variant="default"
              onClick={() => set({ additionalQuestions: [...questions, { text: '' }] })}
              data-testid="add-question"
            >
              {t('wizard.content.addQuestion')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Textarea
            label={t('wizard.content.additionalInstructions')}
            value={content.additionalInstructions ?? ''}
            onChange={(e) => set({ additionalInstructions: e.currentTarget.value })}
            autosize
            minRows={2}
            maxLength={10_000}
            data-testid="additional-instructions"
          />
          <Textarea
            label={t('wizard.content.additionalInstructionsToHandler')}
            value={content.additionalInstructionsToHandler ?? ''}
            onChange={(e) => set({ additionalInstructionsToHandler: e.currentTarget.value })}
            autosize
            minRows={2}
            maxLength={10_000}
            data-testid="additional-instructions-handler"
          />
          <FileListField
            label={t('wizard.content.additionalFiles')}
            value={content.additionalFiles ?? []}
            onChange={(additionalFiles) => set({ additionalFiles })}
            testId="additional-files"
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
