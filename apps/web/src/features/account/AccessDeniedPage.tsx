import type { AccessDeniedView } from '@dossier/core';
import { Alert, Container, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { definePage } from '../../view/page';

/** A page the signed-in user may not open (403). */
export const AccessDeniedPage = definePage<AccessDeniedView>(({ view }) => {
  const { t } = useTranslation();
  return (
    <Container size="md" data-testid="access-denied">
      <Title order={2} mb="md">
        {t('accounts.accessDenied')}
      </Title>
      <Alert color="red">{view.message}</Alert>
    </Container>
  );
});
