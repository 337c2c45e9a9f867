import { Alert, List } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from '../view/createStore';
import { useServices } from './ServicesContext';

/** An empty message is shown as Unspecified Server Error (also after a bare "500: "). */
export function displayErrorMessage(message: string, unspecified: string): string {
  const trimmed = message.trim();
  if (trimmed.length === 0) return unspecified;
  if (/^\d{3}:$/.test(trimmed)) return `${trimmed} ${unspecified}`;
  return message;
}

export function ErrorBanner() {
  const { t } = useTranslation();
  const { view } = useServices();
  const errors = useStore(view, (s) => s.errors);
  if (errors.length === 0) return null;
  const unspecified = t('errors.unspecified');
  return (
    <Alert
      color="red"
      title={t('errors.serverCommunication')}
      withCloseButton
      closeButtonLabel={t('errors.dismiss')}
      onClose={() => view.dismissErrors()}
      mb="md"
      data-testid="error-banner"
    >
      <List size="sm">
        {errors.map((message, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the same message may occur twice
          <List.Item key={index} data-testid="error-message">
            {displayErrorMessage(message, unspecified)}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
