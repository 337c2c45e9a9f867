import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while the user edits and a newer state of the request is held back; nothing is lost. */
export function ChangedNotice({ onShow }: { onShow(): void }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" data-testid="request-changed-notice">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{t('request.live.changed')}</Text>
        <Button size="compact-sm" variant="light" onClick={onShow} data-testid="request-show-changes">
          {t('request.live.showChanges')}
        </Button>
      </Group>
    </Alert>
  );
}
