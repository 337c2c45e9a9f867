import { emptyRichText, type RichTextDoc } from '@dossier/core';
import { Checkbox, Loader, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRequestCommit } from '../requestApi';
import { PanelFrame } from './PanelFrame';
import type { ActionPanelProps } from './panels';

// The editor (TipTap) is loaded when a note is first written, not with the request page.
const NoteEditor = lazy(() => import('./NoteEditor').then((m) => ({ default: m.NoteEditor })));

const hasText = (doc: RichTextDoc) => JSON.stringify(doc).includes('"text":"');

/** Add note: body required; Urgent only when the server says canAddUrgentNote; @ mentions. */
export function AddNotePanel({ view, onDone, onCancel }: ActionPanelProps) {
  const { t } = useTranslation();
  const commit = useRequestCommit();
  const [body, setBody] = useState<RichTextDoc>(emptyRichText());
  const [isUrgent, setUrgent] = useState(false);

  async function submit() {
    if (await commit.runAction(view.request.requestNumber, 'addNote', { body, isUrgent })) onDone();
  }
  return (
    <PanelFrame
      action="addNote"
      title={t('request.actions.addNote')}
      submitLabel={t('request.addNote.submit')}
      busy={commit.busy}
      blocked={hasText(body) ? undefined : t('request.addNote.required')}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Suspense fallback={<Loader size="sm" data-testid="rich-text-loading" />}>
        <NoteEditor
          requestNumber={view.request.requestNumber}
          value={body}
          onChange={(doc) => {
            setBody(doc);
            commit.changed('body');
          }}
          error={commit.fields.body}
        />
      </Suspense>
      <Text size="xs" c="dimmed">
        {t('request.addNote.mentionHint')}
      </Text>
      {view.canAddUrgentNote && (
        <Checkbox
          label={t('request.addNote.urgent')}
          description={t('request.addNote.urgentHint')}
          checked={isUrgent}
          onChange={(ev) => setUrgent(ev.currentTarget.checked)}
          data-testid="addNote-urgent"
        />
      )}
    </PanelFrame>
  );
}
