import { parseDecimalInput, smartFormConditionHolds, type WizardQuestion } from '@dossier/core';
import { Checkbox, Group, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateField } from '../DateField';
import { DecimalInput } from '../inputs';

// The smart form of an item type: each question with an input for its answer type and an Exclude
// toggle (an excluded question is not asked of the recipient). Nested questions show when their
// condition on the parent or the siblings holds.

type Answers = Record<string, unknown>;

function AnswerInput(props: {
  question: WizardQuestion;
  value: unknown;
  disabled: boolean;
  onChange(value: unknown): void;
  testId: string;
  /** The id of the question's text, which names the input for a screen reader. */
  labelId: string;
}) {
  const { t } = useTranslation();
  const { question: q, disabled, testId } = props;
  const text = typeof props.value === 'string' ? props.value : '';
  const named = { 'aria-labelledby': props.labelId };
  switch (q.answerType) {
    case 'yesOrNo':
      return (
        <SegmentedControl
          style={{ alignSelf: 'flex-start' }}
          w={220}
          disabled={disabled}
          value={text}
          onChange={props.onChange}
          data={[
            { value: 'yes', label: t('wizard.content.yes') },
            { value: 'no', label: t('wizard.content.no') },
          ]}
          {...named}
          data-testid={testId}
        />
      );
    case 'option':
      return (
        <Select
          disabled={disabled}
          data={q.options.map((o) => ({ value: o.id, label: o.name }))}
          value={text || null}
          onChange={props.onChange}
          clearable
          {...named}
          data-testid={testId}
        />
      );
    case 'decimalNumber':
      // The answer is stored as text; the input keeps an invalid text with its error, uncommitted.
      return (
        <DecimalInput
          disabled={disabled}
          precision={q.decimalPrecision}
          value={parseDecimalInput(text, { precision: q.decimalPrecision })}
          onCommit={(v) => props.onChange(v === undefined ? '' : String(v))}
          {...named}
          data-testid={testId}
        />
      );
    case 'yearMonthAndDate':
      return (
        <DateField
          disabled={disabled}
          value={text || null}
          onChange={props.onChange}
          invalidMessage={t('wizard.invalidDate')}
          {...named}
          data-testid={testId}
        />
      );
    case 'freeText':
      return (
        <TextInput
          disabled={disabled}
          value={text}
          onChange={(e) => props.onChange(e.currentTarget.value)}
          {...named}
          data-testid={testId}
        />
      );
    default:
      return (
        <Textarea
          disabled={disabled}
          value={text}
          autosize
          minRows={2}
          onChange={(e) => props.onChange(e.currentTarget.value)}
          {...named}
          data-testid={testId}
        />
      );
  }
}

export function SmartFormQuestions(props: {
  questions: WizardQuestion[];
  answers: Answers;
  excluded: string[];
  onAnswer(id: string, value: unknown): void;
  onExclude(id: string, excluded: boolean): void;
  testId: string;
  parentAnswer?: unknown;
}) {
  const { t } = useTranslation();
  const { questions, answers, excluded } = props;
  return (
    <Stack gap="sm">
      {questions
        .filter((q) => smartFormConditionHolds(q, props.parentAnswer, questions, answers))
        .map((q) => {
          const isExcluded = excluded.includes(q.id);
          const testId = `${props.testId}-${q.id}`;
          const labelId = `${testId}-name`;
          return (
            <Stack
              key={q.id}
              gap={4}
              pl={props.parentAnswer === undefined ? 0 : 'lg'}
              data-testid={`${testId}-question`}
            >
              <Group justify="space-between" wrap="nowrap">
                <Text
                  id={labelId}
                  size="sm"
                  fw={500}
                  {...(isExcluded && { c: 'dimmed', td: 'line-through' })}
                >
                  {q.name}
                </Text>
                <Checkbox
                  size="xs"
                  label={t('wizard.content.exclude')}
                  checked={isExcluded}
                  onChange={(e) => props.onExclude(q.id, e.currentTarget.checked)}
                  data-testid={`${testId}-exclude`}
                />
              </Group>
              <AnswerInput
                question={q}
                value={answers[q.id]}
                disabled={isExcluded}
                onChange={(value) => props.onAnswer(q.id, value)}
                testId={testId}
                labelId={labelId}
              />
              {q.nestedForm.length > 0 && !isExcluded && (
                <SmartFormQuestions
                  {...props}
                  questions={q.nestedForm}
                  parentAnswer={answers[q.id] ?? null}
                />
              )}
            </Stack>
          );
        })}
    </Stack>
  );
}
