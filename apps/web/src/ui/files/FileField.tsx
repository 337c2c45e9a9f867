import type { FileRef } from '@dossier/core';
import { Button, FileButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';
import { UploadError, uploadFile } from './uploadFile';

interface Common {
  label: string;
  accept?: string | undefined;
  publicRead?: boolean | undefined;
  disabled?: boolean | undefined;
  error?: string | undefined;
  testId?: string | undefined;
}

function FileLink({ file }: { file: FileRef }) {
  const { t } = useTranslation();
  return (
    <a href={`/files/${file.key}`} target="_blank" rel="noopener noreferrer">
      {file.name ?? file.key}
      {file.pending ? ` (${t('files.pending')})` : ''}
    </a>
  );
}

/** A failed upload: "Error uploading file: {name}", with the reason as a tooltip. */
function UploadFailure({ failure }: { failure: UploadError | undefined }) {
  if (!failure) return null;
  return (
    <Tooltip label={failure.reason} multiline maw={360}>
      <Text c="red" size="xs" data-testid="upload-error">
        {failure.message}
      </Text>
    </Tooltip>
  );
}

function useUpload(publicRead?: boolean) {
  const { api } = useServices();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<UploadError>();
  async function upload(file: File): Promise<FileRef | undefined> {
    setBusy(true);
    setFailure(undefined);
    try {
      return await uploadFile(api, file, publicRead);
    } catch (error) {
      setFailure(error instanceof UploadError ? error : new UploadError(file.name, String(error)));
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { busy, failure, upload };
}

/** One file: uploads through POST /files; a failed upload clears the value. */
export function FileField(props: Common & { value: FileRef | null; onChange(value: FileRef | null): void }) {
  const { t } = useTranslation();
  const { busy, failure, upload } = useUpload(props.publicRead);
  return (
    <Stack gap={2} data-testid={props.testId}>
      <Text size="sm" fw={500}>
        {props.label}
      </Text>
      <Group gap="xs">
        {props.value ? (
          <FileLink file={props.value} />
        ) : (
          <Text size="sm" c="dimmed">
            {t('files.none')}
          </Text>
        )}
        {!props.disabled && (
          <>
            <FileButton
              {...(props.accept !== undefined && { accept: props.accept })}
              onChange={async (file) => {
                if (!file) return;
                props.onChange((await upload(file)) ?? null);
              }}
            >
              {(p) => (
                <Button size="xs" variant="default" loading={busy} {...p}>
                  {t('files.upload')}
                </Button>
              )}
            </FileButton>
            {props.value && (
              <Button size="xs" variant="subtle" color="red" onClick={() => props.onChange(null)}>
                {t('files.remove')}
              </Button>
            )}
          </>
        )}
      </Group>
      <UploadFailure failure={failure} />
      {props.error && (
        <Text c="red" size="xs">
          {props.error}
        </Text>
      )}
    </Stack>
  );
}

/** Several files: each upload is added to the list; a failed one is left out. */
export function FileListField(props: Common & { value: FileRef[]; onChange(value: FileRef[]): void }) {
  const { t } = useTranslation();
  const { busy, failure, upload } = useUpload(props.publicRead);
  return (
    <Stack gap={2} data-testid={props.testId}>
      <Text size="sm" fw={500}>
        {props.label}
      </Text>
      {props.value.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('files.none')}
        </Text>
      )}
      {props.value.map((file, index) => (
        <Group key={file.key} gap="xs">
          <FileLink file={file} />
          {!props.disabled && (
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              onClick={() => props.onChange(props.value.filter((_, i) => i !== index))}
            >
              {t('files.remove')}
            </Button>
          )}
        </Group>
      ))}
      {!props.disabled && (
        <FileButton
          multiple
          {...(props.accept !== undefined && { accept: props.accept })}
          onChange={async (files) => {
            let list = props.value;
            for (const file of files) {
              const uploaded = await upload(file);
              if (uploaded) {
                list = [...list, uploaded];
                props.onChange(list);
              }
            }
          }}
        >
          {(p) => (
            <Button size="xs" variant="default" loading={busy} w="fit-content" {...p}>
              {t('files.add')}
            </Button>
          )}
        </FileButton>
      )}
      <UploadFailure failure={failure} />
      {props.error && (
        <Text c="red" size="xs">
          {props.error}
        </Text>
      )}
    </Stack>
  );
}
