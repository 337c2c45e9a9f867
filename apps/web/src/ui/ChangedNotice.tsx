import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Shown while the user edits and a newer state of the page is held back (view/follow): nothing
 * they typed is lost, and the button brings the newer state in around their edit.
 */
export function ChangedNotice({ text, onShow }: { text: string; onShow(): void }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" data-testid="changed-notice">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{text}</Text>
        <Button size="compact-sm" variant="light" onClick={onShow} data-testid="show-changes">
          {t('shell.showChanges')}
        </Button>
      </Group>
    </Alert>
  );
}
