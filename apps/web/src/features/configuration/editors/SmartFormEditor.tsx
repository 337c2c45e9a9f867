import {
  ANSWER_TYPES,
  CONDITIONS,
  MAX_DECIMAL_PRECISION,
  MAX_SMART_FORM_LEVEL,
  questionNameOf,
  type SmartFormQuestion,
  TOP_LEVEL_CONDITIONS,
} from '@dossier/core';
import { ActionIcon, Button, Group, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CommittedTextInput, IdentifierInput, IntegerInput } from '../../../ui/inputs';
import { RichTextEditor } from '../../../ui/RichTextEditor';
import type { EntryChoices } from '../types';
import { move, nextId, replaceAt } from './common';
import { ColumnList } from './TableColumnsEditor';

export function newQuestion(siblings: SmartFormQuestion[]): SmartFormQuestion {
  return {
    id: nextId('q', siblings),
    name: '',
    richText: { type: 'doc', content: [] },
    answerType: 'freeText',
    nestedForm: [],
    tableColumns: [],
  };
}

interface ListProps {
  questions: SmartFormQuestion[];
  onChange(questions: SmartFormQuestion[]): void;
  level: number;
  path: string;
  errors: Record<string, string>;
  disabled: boolean;
  choices: EntryChoices;
}

/** Smart form questions, nested to level 2; a table question holds at most 4 columns instead. */
export function QuestionList({ questions, onChange, level, path, errors, disabled, choices }: ListProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid={`questions-${path}`}>
      {questions.map((q, i) => (
        <QuestionRow
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional; their inputs follow their value
          key={i}
          question={q}
          index={i}
          count={questions.length}
          level={level}
          path={`${path}.${i}`}
          errors={errors}
          disabled={disabled}
          choices={choices}
          onChange={(next) => onChange(replaceAt(questions, i, next))}
          onMove={(by) => onChange(move(questions, i, by))}
          onRemove={() => onChange(questions.filter((_, j) => j !== i))}
        />
      ))}
      {!disabled && (
        <Button
          size="xs"
          variant="default"
          onClick={() => onChange([...questions, newQuestion(questions)])}
          data-testid={`add-question-${path}`}
          w="fit-content"
        >
          {level === 0 ? t('configuration.smartForm.addQuestion') : t('configuration.smartForm.addNested')}
        </Button>
      )}
    </Stack>
  );
}

function QuestionRow(props: {
  question: SmartFormQuestion;
  index: number;
  count: number;
  level: number;
  path: string;
  errors: Record<string, string>;
  disabled: boolean;
  choices: EntryChoices;
  onChange(q: SmartFormQuestion): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const { question: q, level, path, errors, disabled } = props;
  const set = (change: Partial<SmartFormQuestion>) => props.onChange({ ...q, ...change });
  const conditions = level === 0 ? TOP_LEVEL_CONDITIONS : CONDITIONS;
  const isTable = q.answerType === 'table';
  return (
    <Paper withBorder p="xs" ml={level * 24} data-testid={`question-${path}`} data-level={level}>
      <Group justify="space-between" mb={4}>
        <Text size="sm" fw={600}>
          {q.name || t('configuration.smartForm.unnamed')}
        </Text>
        <Group gap={2}>
          <ActionIcon
            variant="subtle"
            onClick={() => props.onMove(-1)}
            disabled={disabled || props.index === 0}
            aria-label={t('configuration.moveUp')}
          >
            <IconArrowUp size={16} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            onClick={() => props.onMove(1)}
            disabled={disabled || props.index === props.count - 1}
            aria-label={t('configuration.moveDown')}
          >
            <IconArrowDown size={16} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            onClick={props.onRemove}
            disabled={disabled || q.nestedForm.length > 0}
            aria-label={t('configuration.remove')}
            data-testid={`remove-question-${path}`}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      </Group>
      <RichTextEditor
        value={q.richText}
        onChange={(richText) => set({ richText, name: questionNameOf(richText) })}
        disabled={disabled}
        minHeight={50}
        data-testid={`question-text-${path}`}
      />
      {errors[`${path}.richText`] && (
        <Text c="red" size="xs">
          {errors[`${path}.richText`]}
        </Text>
      )}
      <SimpleGrid cols={4} mt="xs">
        <IdentifierInput
          label={t('configuration.fields.id')}
          value={q.id}
          onCommit={(id) => set({ id })}
          error={errors[`${path}.id`]}
          disabled={disabled}
        />
        <Select
          label={t('configuration.smartForm.answerType')}
          value={q.answerType}
          data={ANSWER_TYPES.filter((a) => a !== 'table' || q.nestedForm.length === 0).map((a) => ({
            value: a,
            label: t(`configuration.answerTypes.${a}`),
          }))}
          onChange={(v) =>
            v &&
            set({
              answerType: v as SmartFormQuestion['answerType'],
              nestedForm: v === 'table' ? [] : q.nestedForm,
            })
          }
          disabled={disabled}
          data-testid={`answer-type-${path}`}
        />
        <Select
          label={t('configuration.smartForm.condition')}
          clearable
          value={q.condition ?? null}
          data={conditions.map((c) => ({ value: c, label: t(`configuration.conditions.${c}`) }))}
          onChange={(v) => set({ condition: (v as SmartFormQuestion['condition']) ?? null })}
          error={errors[`${path}.condition`]}
          disabled={disabled}
        />
        {!isTable && (
          <CommittedTextInput
            label={t('configuration.fields.foreignId')}
            value={q.foreignId ?? ''}
            onCommit={(foreignId) => set({ foreignId })}
            disabled={disabled}
          />
        )}
        {q.answerType === 'option' && (
          <Select
            label={t('configuration.smartForm.optionRange')}
            value={q.optionRange ?? null}
            data={props.choices.optionLists.map((o) => ({ value: o.id, label: o.name }))}
            onChange={(v) => set({ optionRange: v ?? undefined })}
            error={errors[`${path}.optionRange`]}
            disabled={disabled}
          />
        )}
        {q.answerType === 'decimalNumber' && (
          <IntegerInput
            label={t('configuration.smartForm.decimalPrecision')}
            min={0}
            max={MAX_DECIMAL_PRECISION}
            value={q.decimalPrecision ?? 2}
            onCommit={(v) => set({ decimalPrecision: v ?? 2 })}
            error={errors[`${path}.decimalPrecision`]}
            disabled={disabled}
            data-testid={`decimal-precision-${path}`}
          />
        )}
        <IntegerInput
          label={t('configuration.smartForm.linesOnPdf')}
          min={0}
          max={50}
          value={q.linesOnPdf}
          onCommit={(v) => set({ linesOnPdf: v })}
          disabled={disabled}
        />
      </SimpleGrid>
      {isTable ? (
        <ColumnList
          columns={q.tableColumns}
          onChange={(tableColumns) => set({ tableColumns })}
          path={`${path}.tableColumns`}
          errors={errors}
          disabled={disabled}
        />
      ) : (
        <>
          {errors[`${path}.nestedForm`] && (
            <Text c="red" size="xs">
              {errors[`${path}.nestedForm`]}
            </Text>
          )}
          {(q.nestedForm.length > 0 || level < MAX_SMART_FORM_LEVEL) && (
            <div style={{ marginTop: 8 }}>
              {level < MAX_SMART_FORM_LEVEL ? (
                <QuestionList
                  questions={q.nestedForm}
                  onChange={(nestedForm) => set({ nestedForm })}
                  level={level + 1}
                  path={`${path}.nestedForm`}
                  errors={errors}
                  disabled={disabled}
                  choices={props.choices}
                />
              ) : null}
            </div>
          )}
        </>
      )}
    </Paper>
  );
}
