import type { FileRef, RequestView } from '@dossier/core';
import { SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileField } from '../../../ui/files/FileField';

/** The attachments of the request's correspondence that may be used (blocked ones may not). */
export function correspondenceAttachments(view: RequestView): FileRef[] {
  const seen = new Set<string>();
  const files: FileRef[] = [];
  for (const item of view.correspondence ?? [])
    for (const a of item.attachments)
      if (!a.blocked && !seen.has(a.key)) {
        seen.add(a.key);
        files.push({ key: a.key, name: a.name });
      }
  return files;
}

/** The file of a new result or invoice: uploaded, or chosen from the correspondence attachments. */
export function RequestFileChoice(props: {
  view: RequestView;
  value: FileRef | null;
  onChange(value: FileRef | null): void;
  error?: string | undefined;
  disabled?: boolean | undefined;
}) {
  const { t } = useTranslation();
  const attachments = correspondenceAttachments(props.view);
  const [source, setSource] = useState<'upload' | 'correspondence'>('upload');
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('results.fileChoice.label')}{' '}
        <Text span c="red">
          *
        </Text>
      </Text>
      <SegmentedControl
        w="fit-content"
        size="xs"
        value={source}
        {...(props.disabled !== undefined && { disabled: props.disabled })}
        onChange={(value) => {
          setSource(value as 'upload' | 'correspondence');
          props.onChange(null);
        }}
        data={[
          { value: 'upload', label: t('results.fileChoice.upload') },
          { value: 'correspondence', label: t('results.fileChoice.correspondence') },
        ]}
        data-testid="file-source"
      />
      {source === 'upload' ? (
        <FileField
          label={t('results.fileChoice.upload')}
          value={props.value}
          onChange={props.onChange}
          error={props.error}
          {...(props.disabled !== undefined && { disabled: props.disabled })}
          testId="file-upload"
        />
      ) : attachments.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="no-attachments">
          {t('results.fileChoice.noAttachments')}
        </Text>
      ) : (
        <Select
          label={t('results.fileChoice.attachment')}
          data={attachments.map((a) => ({ value: a.key, label: a.name ?? a.key }))}
          value={props.value?.key ?? null}
          onChange={(key) => props.onChange(attachments.find((a) => a.key === key) ?? null)}
          error={props.error}
          {...(props.disabled !== undefined && { disabled: props.disabled })}
          allowDeselect={false}
          data-testid="file-attachment"
        />
      )}
    </Stack>
  );
}
