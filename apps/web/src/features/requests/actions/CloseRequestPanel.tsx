import { type TagDefinition, validateTags } from '@dossier/core';
import { Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TagSelects } from '../../../ui/TagSelects';
import { useRequestCommit } from '../requestApi';
import { PanelFrame } from './PanelFrame';
import type { ActionPanelProps } from './panels';

function TagsAndNoticePanel({
  view,
  onDone,
  onCancel,
  action,
  tagSet,
  texts,
}: ActionPanelProps & { action: string; tagSet: string; texts: 'close' | 'reOpen' }) {
  const { t } = useTranslation();
  const commit = useRequestCommit();
  const definitions: TagDefinition[] = view.lookups.tags[tagSet] ?? [];
  const [tags, setTags] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState('');
  // The first tag still to choose is said beside the disabled button.
  const blocked = Object.values(validateTags(definitions, tags))[0];

  async function submit() {
    if (await commit.runAction(view.request.requestNumber, action, { tags, notice })) onDone();
  }
  return (
    <PanelFrame
      action={action}
      title={t(`request.actions.${action}`)}
      submitLabel={t(`request.${texts}.submit`)}
      busy={commit.busy}
      blocked={blocked}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <TagSelects definitions={definitions} value={tags} onChange={setTags} errors={commit.fields} />
      <Textarea
        label={t(`request.${texts}.notice`)}
        description={t(`request.${texts}.noticeHint`)}
        value={notice}
        onChange={(ev) => setNotice(ev.currentTarget.value)}
        error={commit.fields.notice}
        autosize
        minRows={2}
        data-testid={`${action}-notice`}
      />
    </PanelFrame>
  );
}

/** Close request: the close tags are required; an empty notice gets the spec's default text. */
export function CloseRequestPanel(props: ActionPanelProps) {
  return <TagsAndNoticePanel {...props} action="closeRequest" tagSet="close" texts="close" />;
}

/** Re-open request: the re-open tags are required; an empty notice gets the spec's default text. */
export function ReOpenRequestPanel(props: ActionPanelProps) {
  return <TagsAndNoticePanel {...props} action="reOpenRequest" tagSet="reOpen" texts="reOpen" />;
}
