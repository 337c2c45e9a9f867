import type { SignInView } from '@dossier/core';
import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PasskeySignIn } from '../../shell/PasskeySignIn';
import { useServices } from '../../shell/ServicesContext';
import { useStore } from '../../view/createStore';
import { definePage } from '../../view/page';

/** The sign-in page: a plain HTML form POST to /signin, answered by a redirect. */
export const SignInPage = definePage<SignInView>(({ view }) => {
  const { t } = useTranslation();
  const { session } = useServices();
  const features = useStore(session, (s) => s.features);
  const sso = features.singleSignOn;
  // With passwords off the form is shown only on the break-glass account's page (/signin?local=1).
  const showPassword = sso?.enablePasswordHandling !== false || view.breakGlass === true;
  // The box serves both answers of the second step: the code form posts it, the passkey sends it.
  const remember = useRef<HTMLInputElement>(null);
  return (
    <Container size={420} py="xl" data-testid="signin-page">
      <Title order={2} ta="center" mb="lg">
        {t('signin.title')}
      </Title>
      <Paper withBorder shadow="sm" p="lg" radius="md">
        <Stack>
          {view.err && (
            <Alert color="red" data-testid="signin-error">
              {view.err}
            </Alert>
          )}
          {view.secondStep && (
            // The second step: the password was right, a code of a second factor follows.
            <form method="post" action="/signin/second-factor" data-testid="signin-code-form">
              <Stack>
                <input type="hidden" name="return-url" value={view.returnUrl ?? ''} />
                <Text size="sm">{t('signin.codeHint')}</Text>
                <TextInput
                  label={t('signin.code')}
                  name="code"
                  autoComplete="one-time-code"
                  inputMode="text"
                  required
                  autoFocus
                  data-testid="signin-code"
                />
                {view.rememberDevice && (
                  // A plain checkbox: Mantine's would add to the first load, which this page is part of.
                  <Text component="label" size="sm">
                    <input
                      type="checkbox"
                      name="remember"
                      value="1"
                      ref={remember}
                      data-testid="signin-remember"
                    />{' '}
                    {t('signin.rememberDevice')}
                  </Text>
                )}
                <Button type="submit" fullWidth data-testid="signin-code-submit">
                  {t('signin.verify')}
                </Button>
                {view.passkey && (
                  <PasskeySignIn
                    returnUrl={view.returnUrl}
                    label={t('signin.usePasskey')}
                    remember={() => remember.current?.checked === true}
                  />
                )}
                <Anchor href="/signin" size="sm" data-testid="signin-code-restart">
                  {t('signin.restart')}
                </Anchor>
              </Stack>
            </form>
          )}
          {showPassword && !view.secondStep && (
            <form method="post" action="/signin" data-testid="signin-form">
              <Stack>
                <input type="hidden" name="return-url" value={view.returnUrl ?? ''} />
                {view.breakGlass && <input type="hidden" name="local" value="1" />}
                <TextInput
                  label={t('signin.username')}
                  name="username"
                  autoComplete="username"
                  required
                  autoFocus
                  data-testid="signin-username"
                />
                <PasswordInput
                  label={t('signin.password')}
                  name="password"
                  autoComplete="current-password"
                  required
                  data-testid="signin-password"
                />
                <Button type="submit" fullWidth data-testid="signin-submit">
                  {t('signin.submit')}
                </Button>
              </Stack>
            </form>
          )}
          {view.passkeySignIn && !view.secondStep && (
            <PasskeySignIn returnUrl={view.returnUrl} label={t('signin.withPasskey')} />
          )}
          {sso && !view.secondStep && (
            // A GET form: /signin?sso=1&return-url=… sends the browser to the identity provider.
            <form method="get" action="/signin" data-testid="signin-sso-form">
              <input type="hidden" name="return-url" value={view.returnUrl ?? '/'} />
              <Button type="submit" name="sso" value="1" variant="default" fullWidth data-testid="signin-sso">
                {t('signin.usingSso')}
              </Button>
            </form>
          )}
          {!view.secondStep && (
            <Group justify="space-between">
              {showPassword && (
                <Anchor component={Link} to="/forgot-password" size="sm" data-testid="signin-forgot-password">
                  {t('signin.forgotPassword')}
                </Anchor>
              )}
              {view.canRegister && (
                <Anchor component={Link} to="/account/create" size="sm" data-testid="signin-create-account">
                  {t('signin.createAccount')}
                </Anchor>
              )}
            </Group>
          )}
        </Stack>
      </Paper>
    </Container>
  );
});
