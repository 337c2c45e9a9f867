import { Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRequestCommit } from '../requestApi';
import { PanelFrame } from './PanelFrame';
import type { ActionPanelProps } from './panels';

/** Place legal hold (reason required) and Remove legal hold (reason optional): retention stops while held. */
function LegalHoldPanel({ view, onDone, onCancel, action }: ActionPanelProps & { action: string }) {
  const { t } = useTranslation();
  const commit = useRequestCommit();
  const [reason, setReason] = useState('');
  const required = action === 'placeLegalHold';
  const blocked = required && !reason.trim() ? t('request.legalHold.reasonMissing') : undefined;
  async function submit() {
    const body = reason.trim() ? { reason } : {};
    if (await commit.runAction(view.request.requestNumber, action, body)) onDone();
  }
  return (
    <PanelFrame
      action={action}
      title={t(`request.actions.${action}`)}
      submitLabel={t(`request.actions.${action}`)}
      busy={commit.busy}
      blocked={blocked}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Textarea
        label={t('request.legalHold.reason')}
        description={t(required ? 'request.legalHold.reasonHint' : 'request.legalHold.removeHint')}
        required={required}
        value={reason}
        onChange={(ev) => setReason(ev.currentTarget.value)}
        error={commit.fields.reason}
        autosize
        minRows={2}
        data-testid={`${action}-reason`}
      />
    </PanelFrame>
  );
}

export function PlaceLegalHoldPanel(props: ActionPanelProps) {
  return <LegalHoldPanel {...props} action="placeLegalHold" />;
}

export function RemoveLegalHoldPanel(props: ActionPanelProps) {
  return <LegalHoldPanel {...props} action="removeLegalHold" />;
}
