import { type FileRef, REQUEST_TAGS, type TagValues } from '@dossier/core';
import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActionPanelProps } from '../actions/panels';
import { RequestFileChoice } from './RequestFileChoice';
import { missingTags, TagSelects } from './TagSelects';
import { useActionCommit } from './useActionCommit';

/** addResult: a file (uploaded or from the correspondence) and the result tags. */
export function AddResultPanel({ view, onDone, onCancel }: ActionPanelProps) {
  const { t } = useTranslation();
  const definitions = view.lookups?.tags?.result ?? REQUEST_TAGS.result;
  const [file, setFile] = useState<FileRef | null>(null);
  const [tags, setTags] = useState<TagValues>({});
  const action = useActionCommit();
  const missing = missingTags(definitions, tags, (name) => t('results.tagRequired', { name }));
  const canSave = file !== null && Object.keys(missing).length === 0 && !action.busy;

  async function save() {
    const n = view.request.requestNumber;
    const answer = await action.commit(`/requests/${n}/actions/addResult`, { file, tags });
    if (answer) onDone();
  }

  return (
    <Paper withBorder p="md" data-testid="panel-addResult">
      <Stack>
        <Title order={4}>{t('results.add.title')}</Title>
        <RequestFileChoice
          view={view}
          value={file}
          onChange={(value) => {
            setFile(value);
            action.clearError('file');
          }}
          error={action.serverErrors.file}
          disabled={action.busy}
        />
        <TagSelects
          definitions={definitions}
          values={tags}
          onChange={setTags}
          errors={action.serverErrors}
          disabled={action.busy}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={action.busy} data-testid="panel-cancel">
            {t('results.actions.cancel')}
          </Button>
          <Button
            onClick={() => void save()}
            disabled={!canSave}
            loading={action.busy}
            data-testid="panel-save"
          >
            {t('results.add.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
