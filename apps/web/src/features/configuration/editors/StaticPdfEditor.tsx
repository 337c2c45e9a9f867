import {
  DEFAULT_PDF_FIELD_MAX_LENGTH,
  FIELD_TYPES,
  type PdfField,
  type PdfFieldSet,
  pdfFieldsRoute,
} from '@dossier/core';
import { ActionIcon, Autocomplete, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../../shell/ServicesContext';
import { FileField } from '../../../ui/files/FileField';
import { CommittedTextInput, IdentifierInput, IntegerInput, LinesInput } from '../../../ui/inputs';
import type { EditorProps } from '../types';
import { replaceAt } from './common';

// The static PDF editor of a request item type: the PDF form and its field sets.
export function StaticPdfEditor({ data, onChange, errors, disabled }: EditorProps<'requestItemTypeEntry'>) {
  const { t } = useTranslation();
  const { api } = useServices();
  const [pdfFields, setPdfFields] = useState<string[]>([]);
  const formKey = data.form && !data.form.pending ? data.form.key : undefined;
  useEffect(() => {
    if (!formKey) return setPdfFields([]);
    let live = true;
    api
      .call(pdfFieldsRoute, { params: { key: formKey } })
      .then((r) => live && setPdfFields(r.fields.map((f) => f.name)))
      .catch(() => live && setPdfFields([]));
    return () => {
      live = false;
    };
  }, [api, formKey]);
  const set = (change: Partial<typeof data>) => onChange({ ...data, ...change });
  const setSet = (i: number, fs: PdfFieldSet) => set({ fieldSets: replaceAt(data.fieldSets, i, fs) });
  const setField = (i: number, j: number, f: PdfField) => {
    const fieldSet = data.fieldSets[i];
    if (fieldSet) setSet(i, { ...fieldSet, fields: replaceAt(fieldSet.fields, j, f) });
  };
  return (
    <Paper withBorder p="sm" data-testid="static-pdf-editor">
      <Title order={5} mb="xs">
        {t('configuration.itemType.staticPdf')}
      </Title>
      <FileField
        label={t('configuration.itemType.form')}
        value={data.form}
        onChange={(form) => set({ form })}
        accept="application/pdf"
        disabled={disabled}
      />
      {pdfFields.length > 0 && (
        <Text size="xs" c="dimmed">
          {t('configuration.itemType.pdfFieldsFound', { count: pdfFields.length })}
        </Text>
      )}
      <Stack gap="xs" mt="sm">
        {data.fieldSets.map((fs, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional; their inputs follow their value
          <Paper key={i} withBorder p="xs" bg="gray.0">
            <Group align="flex-start" gap="xs">
              <IdentifierInput
                label={t('configuration.fields.id')}
                value={fs.id}
                onCommit={(id) => setSet(i, { ...fs, id })}
                error={errors[`fieldSets.${i}.id`]}
                disabled={disabled}
                data-testid={`field-set-id-${i}`}
              />
              <CommittedTextInput
                label={t('configuration.fields.name')}
                value={fs.name}
                onCommit={(name) => setSet(i, { ...fs, name })}
                error={errors[`fieldSets.${i}.name`]}
                disabled={disabled}
              />
              <ActionIcon
                mt={28}
                variant="subtle"
                color="red"
                disabled={disabled}
                onClick={() => set({ fieldSets: data.fieldSets.filter((_, k) => k !== i) })}
                aria-label={t('configuration.remove')}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
            {fs.fields.map((f, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional; their inputs follow their value
              <Group key={j} align="flex-start" gap="xs" ml="lg" mt={4}>
                <IdentifierInput
                  label={t('configuration.fields.id')}
                  value={f.id}
                  onCommit={(id) => setField(i, j, { ...f, id })}
                  error={errors[`fieldSets.${i}.fields.${j}.id`]}
                  disabled={disabled}
                  w={110}
                />
                <CommittedTextInput
                  label={t('configuration.fields.name')}
                  value={f.name}
                  onCommit={(name) => setField(i, j, { ...f, name })}
                  error={errors[`fieldSets.${i}.fields.${j}.name`]}
                  disabled={disabled}
                  w={150}
                />
                <Select
                  label={t('configuration.fields.type')}
                  value={f.type}
                  data={FIELD_TYPES.map((v) => ({ value: v, label: t(`configuration.fieldTypes.${v}`) }))}
                  onChange={(v) => v && setField(i, j, { ...f, type: v as PdfField['type'] })}
                  disabled={disabled}
                  w={150}
                />
                <IntegerInput
                  label={t('configuration.itemType.maxLength')}
                  min={1}
                  max={100000}
                  value={f.maxLength}
                  onCommit={(v) => setField(i, j, { ...f, maxLength: v ?? DEFAULT_PDF_FIELD_MAX_LENGTH })}
                  disabled={disabled}
                  w={90}
                />
                <Autocomplete
                  label={t('configuration.itemType.formFieldKey')}
                  value={f.formFieldKey ?? ''}
                  data={pdfFields}
                  onChange={(v) => setField(i, j, { ...f, formFieldKey: v })}
                  disabled={disabled}
                  w={160}
                />
                <LinesInput
                  label={t('configuration.itemType.autoFillFieldPaths')}
                  minRows={1}
                  value={f.autoFillFieldPaths}
                  onCommit={(v) => setField(i, j, { ...f, autoFillFieldPaths: v })}
                  disabled={disabled}
                  w={180}
                />
                <CommittedTextInput
                  label={t('configuration.itemType.autoFillFormat')}
                  value={f.autoFillFormat ?? ''}
                  onCommit={(v) => setField(i, j, { ...f, autoFillFormat: v })}
                  disabled={disabled}
                  w={120}
                />
                <ActionIcon
                  mt={28}
                  variant="subtle"
                  color="red"
                  disabled={disabled}
                  onClick={() => setSet(i, { ...fs, fields: fs.fields.filter((_, k) => k !== j) })}
                  aria-label={t('configuration.remove')}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
            {!disabled && (
              <Button
                size="xs"
                variant="subtle"
                ml="lg"
                onClick={() =>
                  setSet(i, {
                    ...fs,
                    fields: [
                      ...fs.fields,
                      {
                        id: '',
                        name: '',
                        type: 'singleLineText',
                        maxLength: DEFAULT_PDF_FIELD_MAX_LENGTH,
                        autoFillFieldPaths: [],
                      },
                    ],
                  })
                }
              >
                {t('configuration.itemType.addField')}
              </Button>
            )}
          </Paper>
        ))}
      </Stack>
      {!disabled && (
        <Button
          size="xs"
          variant="default"
          mt="xs"
          onClick={() => set({ fieldSets: [...data.fieldSets, { id: '', name: '', fields: [] }] })}
          data-testid="add-field-set"
        >
          {t('configuration.itemType.addFieldSet')}
        </Button>
      )}
    </Paper>
  );
}
