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
  const refusals = useStore(view, (s) => s.refusals);
  if (errors.length === 0 && refusals.length === 0) return null;
  const unspecified = t('errors.unspecified');
  // A refusal is the server's answer, not a failure to reach it: its reason is said as a plain
  // sentence under a title that says nothing was done. Server Communication Error is kept for
  // network failures and 5xx answers.
  const communication = errors.length > 0;
  return (
    <Alert
      color={communication ? 'red' : 'orange'}
      title={communication ? t('errors.serverCommunication') : t('errors.refused')}
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
        {refusals.map((reason) => (
          <List.Item key={reason} data-testid="error-message" data-refusal="true">
            {reason}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
