import { fieldSetKey, type ItemTypeAnswer, type WizardItemType } from '@dossier/core';
import { Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FileListField } from '../files/FileField';
import { SmartFormQuestions } from './SmartFormQuestions';

type ErrorOf = (field: string) => string | undefined;

/**
 * One chosen item type: its smart form, submitter-supplied fields, field sets and files; the wizard's
 * Content step and the request page's Content edit both use it. Field errors are keyed
 * `content.itemTypes.{index}.…`.
 */
export function ItemTypeForm(props: {
  type: WizardItemType;
  answer: ItemTypeAnswer;
  index: number;
  onChange(answer: ItemTypeAnswer): void;
  errorOf: ErrorOf;
}) {
  const { t } = useTranslation();
  const { type, answer, index } = props;
  const base = `content.itemTypes.${index}`;
  const testId = `item-${type.id}`;
  const set = (change: Partial<ItemTypeAnswer>) => props.onChange({ ...answer, ...change });
  return (
    <Paper withBorder p="md" ml="xl" data-testid={`${testId}-form`}>
      <Stack>
        {type.form && (
          <Text size="sm">
            {t('wizard.content.form')}:{' '}
            <a href={`/files/${type.form.key}`} target="_blank" rel="noopener noreferrer">
              {type.form.name ?? type.form.key}
            </a>
          </Text>
        )}
        {type.smartForm.length > 0 && (
          <Stack gap="xs">
            <Title order={6}>{t('wizard.content.smartForm')}</Title>
            <SmartFormQuestions
              questions={type.smartForm}
              answers={answer.smartFormAnswers}
              excluded={answer.excludedQuestions}
              onAnswer={(id, value) => set({ smartFormAnswers: { ...answer.smartFormAnswers, [id]: value } })}
              onExclude={(id, excluded) =>
                set({
                  excludedQuestions: excluded
                    ? [...answer.excludedQuestions, id]
                    : answer.excludedQuestions.filter((q) => q !== id),
                })
              }
              testId={testId}
            />
          </Stack>
        )}
        {type.submitterSuppliedFields.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {type.submitterSuppliedFields.map((field) => (
              <TextInput
                key={field.id}
                label={field.name}
                description={t('wizard.content.maxLength', { max: field.maxLength })}
                maxLength={field.maxLength}
                value={answer.submitterSuppliedFields[field.id] ?? ''}
                onChange={(e) =>
                  set({
                    submitterSuppliedFields: {
                      ...answer.submitterSuppliedFields,
                      [field.id]: e.currentTarget.value,
                    },
                  })
                }
                error={props.errorOf(`${base}.submitterSuppliedFields.${field.id}`)}
                data-testid={`${testId}-supplied-${field.id}`}
              />
            ))}
          </SimpleGrid>
        )}
        {type.fieldSets.map((fieldSet) => (
          <Stack key={fieldSet.id} gap="xs">
            <Title order={6}>{fieldSet.name}</Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {fieldSet.fields.map((field) => {
                const key = fieldSetKey(fieldSet.id, field.id);
                const fieldTestId = `${testId}-field-${fieldSet.id}-${field.id}`;
                if (field.type === 'files') {
                  return (
                    <FileListField
                      key={key}
                      label={field.name}
                      value={answer.fieldSetFiles?.[key] ?? []}
                      onChange={(files) => set({ fieldSetFiles: { ...answer.fieldSetFiles, [key]: files } })}
                      error={props.errorOf(`${base}.fieldSets.${key}`)}
                      testId={fieldTestId}
                    />
                  );
                }
                const Input = field.type === 'multiLineText' ? Textarea : TextInput;
                return (
                  <Input
                    key={key}
                    label={field.name}
                    description={t('wizard.content.maxLength', { max: field.maxLength })}
                    maxLength={field.maxLength}
                    value={answer.fieldSets[key] ?? ''}
                    onChange={(e) =>
                      set({ fieldSets: { ...answer.fieldSets, [key]: e.currentTarget.value } })
                    }
                    error={props.errorOf(`${base}.fieldSets.${key}`)}
                    data-testid={fieldTestId}
                  />
                );
              })}
            </SimpleGrid>
          </Stack>
        ))}
        <FileListField
          label={t('wizard.content.files')}
          value={answer.files}
          onChange={(files) => set({ files })}
          error={props.errorOf(`${base}.files`)}
          testId={`${testId}-files`}
        />
      </Stack>
    </Paper>
  );
}
