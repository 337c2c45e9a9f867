import { NO_DUE_DATE } from '@dossier/core';
import { Group, Select, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../ui/DateField';
import { useBusinessZoneHint } from '../../../ui/dates';
import { useRequestCommit } from '../requestApi';
import { PanelFrame } from './PanelFrame';
import type { ActionPanelProps } from './panels';

/** Add task: type required; optional due date with time of day; empty notice → the type's default. */
export function AddTaskPanel({ view, onDone, onCancel }: ActionPanelProps) {
  const { t } = useTranslation();
  const commit = useRequestCommit();
  const [type, setType] = useState<string | null>(null);
  const [dueDate, setDueDate] = useState<string | null>(null);
  const [dueTime, setDueTime] = useState('');
  const [notice, setNotice] = useState('');
  const zoneHint = useBusinessZoneHint('time');

  async function submit() {
    const ok = await commit.runAction(view.request.requestNumber, 'addTask', {
      type,
      dueDate,
      dueTime: dueDate && dueDate !== NO_DUE_DATE && dueTime ? dueTime : null,
      notice,
    });
    if (ok) onDone();
  }
  const e = commit.fields;
  return (
    <PanelFrame
      action="addTask"
      title={t('request.actions.addTask')}
      submitLabel={t('request.addTask.submit')}
      busy={commit.busy}
      blocked={type === null ? t('request.addTask.typeRequired') : undefined}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Select
        label={t('request.addTask.type')}
        required
        searchable
        data={view.lookups.addableTaskTypes.map((value) => ({ value, label: t(`taskTypes.${value}`) }))}
        value={type}
        onChange={setType}
        error={e.type}
        data-testid="addTask-type"
      />
      <Group grow align="flex-start">
        <DateField
          label={t('request.addTask.dueDate')}
          description={t('request.addTask.dueDateHint')}
          value={dueDate}
          onChange={setDueDate}
          invalidMessage={t('request.addTask.dueDateInvalid')}
          error={e.dueDate}
          data-testid="addTask-dueDate"
        />
        <TextInput
          label={t('request.addTask.dueTime')}
          description={zoneHint}
          type="time"
          value={dueTime}
          onChange={(ev) => setDueTime(ev.currentTarget.value)}
          disabled={!dueDate || dueDate === NO_DUE_DATE}
          error={e.dueTime}
          data-testid="addTask-dueTime"
        />
      </Group>
      <Textarea
        label={t('request.addTask.notice')}
        description={t('request.addTask.noticeHint')}
        value={notice}
        onChange={(ev) => setNotice(ev.currentTarget.value)}
        error={e.notice}
        autosize
        minRows={2}
        data-testid="addTask-notice"
      />
    </PanelFrame>
  );
}
