import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * "Saved." after a save went through, until the next edit. The live region is always there (empty
 * when there is nothing to say), so a screen reader announces the message when it appears.
 */
export function SavedNotice(props: { saved: boolean }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" fw={500} role="status" aria-live="polite" data-testid="saved-notice">
      {props.saved ? t('accounts.saved') : ''}
    </Text>
  );
}
