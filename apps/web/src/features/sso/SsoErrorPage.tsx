import type { SsoErrorView } from '@dossier/core';
import { Alert, Button, Container, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { definePage } from '../../view/page';

/**
 * /sso/callback when the provider's answer did not sign anybody in: the text and the reason. The
 * person may sign in as someone else: the sign-in starts again with prompt=login, so the provider
 * asks who signs in even while it holds a session.
 */
export const SsoErrorPage = definePage<SsoErrorView>(({ view }) => {
  const { t } = useTranslation();
  return (
    <Container size={560} py="xl" data-testid="sso-error">
      <Stack>
        <Alert color="red" title={t('sso.errorTitle')}>
          <Text>{view.text}</Text>
          <Text size="sm" mt="xs" data-testid="sso-error-message">
            {view.message}
          </Text>
        </Alert>
        <Group>
          <form method="get" action="/signin">
            <input type="hidden" name="prompt" value="login" />
            <Button type="submit" name="sso" value="1" data-testid="sso-signin-other">
              {t('sso.signInAsSomeoneElse')}
            </Button>
          </form>
          <form method="post" action="/signout">
            <Button type="submit" variant="default" data-testid="sso-signout">
              {t('shell.signOut')}
            </Button>
          </form>
        </Group>
      </Stack>
    </Container>
  );
});
