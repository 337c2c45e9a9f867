import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Tells why an edit page is read-only: the server's reason (another scope owns it), else the general text. */
export function ReadOnlyNotice({ reason }: { reason?: string | undefined }) {
  const { t } = useTranslation();
  return (
    <Alert color="gray" data-testid="read-only">
      {reason ?? t('admin.readOnly')}
    </Alert>
  );
}
