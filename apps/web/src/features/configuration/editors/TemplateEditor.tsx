import { checkTemplate, richTextTexts, TEMPLATE_USAGES, templateHasSubject } from '@dossier/core';
import { Code, List, Select, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CommittedTextInput } from '../../../ui/inputs';
import { RichTextEditor } from '../../../ui/RichTextEditor';
import type { EditorProps } from '../types';
import { placeholderError } from './common';
import { TemplatePreview } from './TemplatePreview';

export function TemplateEditor({ data, onChange, errors, disabled, view }: EditorProps<'templateEntry'>) {
  const { t } = useTranslation();
  const hasSubject = templateHasSubject(data.usage);
  // Every placeholder problem of the body, listed under it: the underline's hover alone is easy to miss.
  const problems = useMemo(
    () => richTextTexts(data.body).flatMap((text) => checkTemplate(text)),
    [data.body],
  );
  return (
    <Stack gap="sm">
      <Select
        label={t('configuration.template.usage')}
        value={data.usage}
        onChange={(usage) => usage && onChange({ ...data, usage: usage as typeof data.usage })}
        data={TEMPLATE_USAGES.map((u) => ({ value: u, label: t(`configuration.usages.${u}`) }))}
        disabled={disabled}
        searchable
        data-testid="template-usage"
      />
      {hasSubject && (
        <CommittedTextInput
          label={t('configuration.template.subject')}
          value={data.subject ?? ''}
          onCommit={(subject) => onChange({ ...data, subject })}
          error={placeholderError(data.subject) ?? errors.subject}
          disabled={disabled}
          data-testid="template-subject"
        />
      )}
      <div>
        <Text size="sm" fw={500}>
          {t('configuration.template.body')}
        </Text>
        <RichTextEditor
          value={data.body}
          onChange={(body) => onChange({ ...data, body })}
          disabled={disabled}
          placeholders
          label={t('configuration.template.body')}
          data-testid="template-body"
        />
        {problems.length > 0 && (
          <List size="xs" c="red" mt={4} data-testid="placeholder-problems">
            {problems.map((p) => (
              <List.Item key={`${p.source}-${p.start}-${p.message}`}>
                <Code>{p.source}</Code> {p.message}
              </List.Item>
            ))}
          </List>
        )}
        {errors.body && (
          <Text c="red" size="xs" data-testid="template-body-error">
            {errors.body}
          </Text>
        )}
      </div>
      <TemplatePreview
        configurationId={view.configuration.id}
        subject={hasSubject ? data.subject : undefined}
        body={data.body}
      />
    </Stack>
  );
}
