import { type FileRef, REQUEST_TAGS, type TagValues } from '@dossier/core';
import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActionPanelProps } from '../actions/panels';
import { useRequestCommit } from '../requestApi';
import { RequestFileChoice } from './RequestFileChoice';
import { missingTags, TagSelects } from './TagSelects';

/** addResult: a file (uploaded or from the correspondence) and the result tags. */
export function AddResultPanel({ view, onDone, onCancel }: ActionPanelProps) {
  const { t } = useTranslation();
  const definitions = view.lookups?.tags?.result ?? REQUEST_TAGS.result;
  const [file, setFile] = useState<FileRef | null>(null);
  const [tags, setTags] = useState<TagValues>({});
  const action = useRequestCommit();
  const missing = missingTags(definitions, tags, (name) => t('results.tagRequired', { name }));
  const canSave = file !== null && Object.keys(missing).length === 0 && !action.busy;

  async function save() {
    const n = view.request.requestNumber;
    if (await action.runAction(n, 'addResult', { file, tags })) onDone();
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
            action.changed('file');
          }}
          error={action.fields.file}
          disabled={action.busy}
        />
        <TagSelects
          definitions={definitions}
          values={tags}
          onChange={setTags}
          errors={action.fields}
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
