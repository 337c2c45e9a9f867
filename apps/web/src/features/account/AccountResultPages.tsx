import {
  type AccountConfirmedView,
  type AccountCreatedView,
  type ChangePasswordView,
  changePasswordRoute,
} from '@dossier/core';
import {
  Alert,
  Anchor,
  Button,
  Container,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { useFieldErrors } from '../../ui/forms/useFieldErrors';
import { ErrorText } from '../../ui/UserFields';
import { definePage } from '../../view/page';

/** The congratulations page after self-registration: the new user id and a sign-in link. */
export const AccountCreatedPage = definePage<AccountCreatedView>(({ view }) => {
  const { t } = useTranslation();
  return (
    <Container size="sm" data-testid="account-created-page">
      <Title order={2} mb="md">
        {t('accounts.created.title')}
      </Title>
      <Paper withBorder p="lg">
        <Stack>
          <Text>
            {t('accounts.created.userId')} <b data-testid="created-user-id">{view.userId}</b>
          </Text>
          <Text>{t('accounts.created.confirm', { email: view.email })}</Text>
          <Anchor href="/signin" data-testid="created-signin-link">
            {t('accounts.created.signIn')}
          </Anchor>
        </Stack>
      </Paper>
    </Container>
  );
});

export const AccountConfirmedPage = definePage<AccountConfirmedView>(({ view }) => {
  const { t } = useTranslation();
  return (
    <Container size="sm" data-testid="account-confirmed-page">
      <Title order={2} mb="md">
        {view.title}
      </Title>
      <Alert color={view.confirmed ? 'green' : 'red'} data-testid="confirm-result">
        {view.confirmed
          ? t(view.alreadyConfirmed ? 'accounts.confirmed.already' : 'accounts.confirmed.ok', {
              userId: view.userId,
            })
          : t('accounts.confirmed.failed')}
      </Alert>
      <Anchor href="/signin" mt="md" display="block" data-testid="confirmed-signin-link">
        {t('accounts.created.signIn')}
      </Anchor>
    </Container>
  );
});

/** The step a sign-in goes through when the password must be changed at the next login. */
export const ChangePasswordPage = definePage<ChangePasswordView>(({ view }) => {
  const { t } = useTranslation();
  const { api } = useServices();
  const [username, setUsername] = useState(view.username);
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | undefined>();
  const { errors: fields, replace: setFields, changed } = useFieldErrors();
  const [busy, setBusy] = useState(false);
  const mismatch = repeat.length > 0 && repeat !== newPassword ? t('accounts.repeatMismatch') : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setFields({});
    try {
      const answer = await api.call(changePasswordRoute, {
        body: { username, password, newPassword, returnUrl: view.returnUrl },
      });
      window.location.assign(answer.returnUrl);
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError) {
        setFields(e.fields ?? {});
        if (!e.fields) setError(e.serverMessage ?? e.message);
      } else setError(String(e));
    }
  }

  return (
    <Container size={460} py="xl" data-testid="change-password-page">
      <Title order={2} ta="center" mb="md">
        {view.title}
      </Title>
      <Paper withBorder p="lg" component="form" onSubmit={submit}>
        <Stack>
          <Alert color="yellow">{t('accounts.changePassword.intro')}</Alert>
          {error && (
            <Alert color="red" data-testid="change-password-error">
              {error}
            </Alert>
          )}
          <TextInput
            label={t('signin.username')}
            value={username}
            onChange={(e) => {
              setUsername(e.currentTarget.value);
              changed('username');
            }}
            error={fields.username}
            required
            data-testid="cp-username"
          />
          <PasswordInput
            label={t('accounts.changePassword.current')}
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              // "Must differ from the current one" compares the two passwords.
              changed('password', 'newPassword');
            }}
            error={fields.password}
            required
            data-testid="cp-password"
          />
          <PasswordInput
            label={t('accounts.changePassword.new')}
            value={newPassword}
            onChange={(e) => {
              setNewPassword(e.currentTarget.value);
              changed('newPassword');
            }}
            error={fields.newPassword ? <ErrorText message={fields.newPassword} /> : undefined}
            required
            data-testid="cp-new"
          />
          <PasswordInput
            label={t('accounts.fields.repeatPassword')}
            value={repeat}
            onChange={(e) => setRepeat(e.currentTarget.value)}
            error={mismatch}
            required
            data-testid="cp-repeat"
          />
          <Button
            type="submit"
            loading={busy}
            disabled={busy || !username || !password || !newPassword || repeat !== newPassword}
            data-testid="cp-submit"
          >
            {t('accounts.changePassword.submit')}
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
});
