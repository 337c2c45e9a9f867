import { unlinkInboxMessageRoute } from '@dossier/core';
import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import type { InboxMessageView } from './types';

/** Unlink: only the request numbers the message is linked to now may be chosen. */
export function UnlinkPanel({
  view,
  onDone,
  onCancel,
}: {
  view: InboxMessageView;
  onDone(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const linked = view.message.requestNumbers;
  const [number, setNumber] = useState<string | null>(linked.length === 1 ? (linked[0] ?? null) : null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function submit() {
    if (!number) return;
    setBusy(true);
    setError(undefined);
    try {
      await api.call(unlinkInboxMessageRoute, {
        params: { messageId: view.message.messageId },
        body: { requestNumber: number },
      });
      onDone();
    } catch (e) {
      if (e instanceof ApiError && e.status === 400 && e.fields) setError(e.fields.requestNumber);
      else store.report(e);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Paper withBorder p="md" data-testid="inbox-unlink-panel">
      <Title order={4} mb="sm">
        {t('inbox.actions.unlink')}
      </Title>
      <Stack gap="sm">
        <Text size="sm">{t('inbox.unlink.notice')}</Text>
        <Select
          label={t('inbox.unlink.requestNumber')}
          required
          data={linked}
          value={number}
          onChange={setNumber}
          error={error}
          data-testid="inbox-unlink-number"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('inbox.actions.cancel')}
          </Button>
          <Button
            color="red"
            onClick={() => void submit()}
            loading={busy}
            disabled={busy || !number}
            data-testid="inbox-unlink-submit"
          >
            {t('inbox.actions.submitUnlink')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
