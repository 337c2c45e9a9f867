import { DEFAULT_PDF_FIELD_MAX_LENGTH, smartFormPreviewPostRoute } from '@dossier/core';
import { ActionIcon, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FileField } from '../../../ui/files/FileField';
import { CommittedTextInput, IdentifierInput, IntegerInput, LinesInput } from '../../../ui/inputs';
import { RichTextEditor } from '../../../ui/RichTextEditor';
import type { EditorProps } from '../types';
import { replaceAt } from './common';
import { QuestionList } from './SmartFormEditor';
import { StaticPdfEditor } from './StaticPdfEditor';

/**
 * Preview opens the smart form on the screen, saved or not, as a PDF in a new tab: a plain form
 * post, since the form can be far longer than an address may be (it used to fall back silently to
 * the saved form past 8,000 characters).
 */
function PreviewButton(props: { configurationId: string; formId: string; name: string; data: unknown }) {
  const { t } = useTranslation();
  return (
    <form
      method="post"
      action={smartFormPreviewPostRoute.path}
      target="_blank"
      data-testid="smart-form-preview-form"
      rel="noopener"
    >
      <input type="hidden" name="formId" value={props.formId} />
      <input type="hidden" name="configurationId" value={props.configurationId} />
      <input type="hidden" name="name" value={props.name} />
      <input type="hidden" name="formData" value={JSON.stringify(props.data)} />
      <input type="hidden" name="previewPdf" value="false" />
      <Button type="submit" size="xs" variant="light" data-testid="smart-form-preview">
        {t('configuration.itemType.preview')}
      </Button>
    </form>
  );
}

export function RequestItemTypeEditor({
  data,
  onChange,
  errors,
  disabled,
  view,
}: EditorProps<'requestItemTypeEntry'>) {
  const { t } = useTranslation();
  const set = (change: Partial<typeof data>) => onChange({ ...data, ...change });
  // The editor choice: a non-empty smart form shows only its editor; else a PDF or field sets show
  // only the static PDF editor; with neither, both.
  const showSmartForm = data.smartForm.length > 0 || (!data.form && data.fieldSets.length === 0);
  const showStatic = data.smartForm.length === 0;
  return (
    <Stack gap="md">
      {showSmartForm && (
        <Paper withBorder p="sm" data-testid="smart-form-editor">
          <Group justify="space-between" mb="xs">
            <Title order={5}>{t('configuration.itemType.smartForm')}</Title>
            {!view.isNew && data.smartForm.length > 0 && (
              <PreviewButton
                configurationId={view.configuration.id}
                formId={view.entry.id}
                name={view.entry.name}
                data={data}
              />
            )}
          </Group>
          <QuestionList
            questions={data.smartForm}
            onChange={(smartForm) => set({ smartForm })}
            level={0}
            path="smartForm"
            errors={errors}
            disabled={disabled}
            choices={view.choices}
          />
        </Paper>
      )}
      {showStatic && <StaticPdfEditor {...{ data, onChange, errors, disabled, view }} />}
      <Paper withBorder p="sm">
        <Title order={5} mb="xs">
          {t('configuration.itemType.submitterSuppliedFields')}
        </Title>
        {data.submitterSuppliedFields.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional; their inputs follow their value
          <Group key={i} align="flex-start" gap="xs">
            <IdentifierInput
              label={t('configuration.fields.id')}
              value={f.id}
              onCommit={(id) =>
                set({ submitterSuppliedFields: replaceAt(data.submitterSuppliedFields, i, { ...f, id }) })
              }
              error={errors[`submitterSuppliedFields.${i}.id`]}
              disabled={disabled}
            />
            <CommittedTextInput
              label={t('configuration.fields.name')}
              value={f.name}
              onCommit={(name) =>
                set({ submitterSuppliedFields: replaceAt(data.submitterSuppliedFields, i, { ...f, name }) })
              }
              error={errors[`submitterSuppliedFields.${i}.name`]}
              disabled={disabled}
            />
            <IntegerInput
              label={t('configuration.itemType.maxLength')}
              min={1}
              max={100000}
              value={f.maxLength}
              onCommit={(maxLength) =>
                set({
                  submitterSuppliedFields: replaceAt(data.submitterSuppliedFields, i, {
                    ...f,
                    maxLength: maxLength ?? 100,
                  }),
                })
              }
              disabled={disabled}
            />
            <ActionIcon
              mt={28}
              variant="subtle"
              color="red"
              disabled={disabled}
              onClick={() =>
                set({ submitterSuppliedFields: data.submitterSuppliedFields.filter((_, j) => j !== i) })
              }
              aria-label={t('configuration.remove')}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        {!disabled && (
          <Button
            size="xs"
            variant="default"
            mt="xs"
            onClick={() =>
              set({
                submitterSuppliedFields: [
                  ...data.submitterSuppliedFields,
                  { id: '', name: '', maxLength: DEFAULT_PDF_FIELD_MAX_LENGTH },
                ],
              })
            }
          >
            {t('configuration.itemType.addField')}
          </Button>
        )}
      </Paper>
      <SimpleGrid cols={3}>
        <CommittedTextInput
          label={t('configuration.fields.foreignId')}
          value={data.foreignId}
          onCommit={(foreignId) => set({ foreignId })}
          disabled={disabled}
        />
        <Checkbox
          mt="lg"
          label={t('configuration.itemType.isApiOnly')}
          checked={data.isApiOnly}
          onChange={(e) => set({ isApiOnly: e.currentTarget.checked })}
          disabled={disabled}
        />
        <FileField
          label={t('configuration.itemType.secondarySmartFormLogo')}
          value={data.secondarySmartFormLogo}
          onChange={(v) => set({ secondarySmartFormLogo: v })}
          accept="image/png,image/jpeg"
          publicRead
          disabled={disabled}
        />
      </SimpleGrid>
      <div>
        <Text size="sm" fw={500}>
          {t('configuration.itemType.headerExtrasTemplate')}
        </Text>
        <RichTextEditor
          value={data.headerExtrasTemplate}
          onChange={(headerExtrasTemplate) => set({ headerExtrasTemplate })}
          disabled={disabled}
          placeholders
          minHeight={60}
        />
        {errors.headerExtrasTemplate && (
          <Text c="red" size="xs">
            {errors.headerExtrasTemplate}
          </Text>
        )}
      </div>
      <LinesInput
        label={t('configuration.itemType.configuration')}
        value={data.configuration ? data.configuration.split('\n') : []}
        onCommit={(lines) => set({ configuration: lines.join('\n') })}
        disabled={disabled}
        minRows={2}
      />
    </Stack>
  );
}
