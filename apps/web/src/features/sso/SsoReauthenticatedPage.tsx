import type { SsoReauthenticatedView } from '@dossier/core';
import { Container, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { definePage } from '../../view/page';

/** The window the sign-in overlay opened: tells its opener who signed in, then closes. */
export const SsoReauthenticatedPage = definePage<SsoReauthenticatedView>(({ view }) => {
  const { t } = useTranslation();
  useEffect(() => {
    if (!window.opener) return;
    (window.opener as Window).postMessage({ success: true, user: view.user }, window.location.origin);
    // Closing at once could let the opener notice the closed window before it reads the message.
    const timer = window.setTimeout(() => window.close(), 300);
    return () => window.clearTimeout(timer);
  }, [view.user]);
  return (
    <Container py="xl">
      <Text data-testid="sso-reauthenticated">{t('sso.signedIn')}</Text>
    </Container>
  );
});
