import { signInRoute, signInSecondFactorRoute, type UserState } from '@dossier/core';
import { Alert, Anchor, Button, Checkbox, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../api';
import { useStore } from '../view/createStore';
import { PasskeySignIn } from './PasskeySignIn';
import { useServices } from './ServicesContext';
import { SsoReauthenticate } from './SsoReauthenticate';

/**
 * The text shown when the overlay's sign-in fails: the server's own sign-in message for a refusal
 * (401, or 429 when locked), else the message of the error.
 */
export function signInFailureText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && (error.status === 401 || error.status === 429)) {
    return error.serverMessage || fallback;
  }
  return error instanceof Error && error.message ? error.message : fallback;
}

/**
 * Re-sign-in after a 401: success clears the errors and reloads the last view. When somebody else
 * signs in (another account at the identity provider), the previous user's page is not shown to
 * them: the overlay says so and loads the new user's home page.
 */
export function SignInOverlay() {
  const { t } = useTranslation();
  const services = useServices();
  const navigate = useNavigate();
  const location = useLocation();
  const [switched, setSwitched] = useState<
    { name: string; previous: string; discarded: boolean } | undefined
  >();
  const open = useStore(services.view, (s) => s.signInRequired);
  const features = useStore(services.session, (s) => s.features);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [mustChange, setMustChange] = useState(false);
  // The password was right and a second factor's code must follow.
  const [codeStep, setCodeStep] = useState(false);
  const [code, setCode] = useState('');
  // Offered where the configuration offers it, as on the sign-in page's second step.
  const [offerRemember, setOfferRemember] = useState(false);
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const sso = features.singleSignOn;
  const showPassword = !sso || sso.enablePasswordHandling;

  function signedIn(user: UserState) {
    const previous = services.session.get().user;
    services.session.set({ user });
    services.view.signedIn();
    setPassword('');
    setError(undefined);
    if (previous && previous.id !== user.id) {
      // The previous user's unsaved edits are not for the new user: they go, and the notice says so.
      const discarded = services.view.get().dirty;
      services.view.revert();
      setSwitched({ name: user.name, previous: previous.name, discarded });
      if (location.pathname === '/' && !location.search) void services.view.load('/');
      // After the page has rendered without the edits, so leaving it asks nothing.
      else setTimeout(() => void navigate('/'), 0);
      return;
    }
    void services.view.reloadKeepingEdits();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      // Form-encoded, as the sign-in page's plain form posts it.
      const answer = codeStep
        ? await services.api.call(signInSecondFactorRoute, {
            body: { code, ...(offerRemember && remember ? { remember: '1' } : {}) },
          })
        : await services.api.call(signInRoute, { body: { username, password } }, { asForm: true });
      if ('secondFactor' in answer && answer.secondFactor) {
        setOfferRemember('rememberDevice' in answer && answer.rememberDevice === true);
        setCodeStep(true);
        setError(undefined);
        return;
      }
      if (!answer.user) throw new Error(t('signin.failed'));
      // A second factor the user's roles require comes first: the account page enrols it.
      if ('mustEnrol' in answer && answer.mustEnrol) {
        window.location.assign('/account');
        return;
      }
      setCodeStep(false);
      setCode('');
      signedIn(answer.user);
    } catch (caught) {
      setError(signInFailureText(caught, t('signin.failed')));
      // The right password, but it must be replaced first: the change step is a page of its own.
      setMustChange(caught instanceof ApiError && caught.code === 'passwordMustChange');
      // An expired or locked second step starts again from the password.
      if (caught instanceof ApiError && (caught.code === 'expired' || caught.code === 'locked'))
        setCodeStep(false);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Modal
        opened={switched !== undefined}
        onClose={() => setSwitched(undefined)}
        title={t('sso.switchedTitle')}
        centered
        data-testid="signin-switched-user"
      >
        <Stack>
          <Alert color="yellow" data-testid="signin-switched-text">
            {switched && t('sso.switched', switched)}
            {switched?.discarded && ` ${t('sso.switchedDiscarded', switched)}`}
          </Alert>
          <Button onClick={() => setSwitched(undefined)} data-testid="signin-switched-ok">
            {t('sso.switchedOk')}
          </Button>
        </Stack>
      </Modal>
      <Modal
        opened={open}
        onClose={() => services.view.set({ signInRequired: false })}
        title={t('signin.overlayTitle')}
        closeOnClickOutside={false}
        centered
        data-testid="signin-overlay"
      >
        <Stack>
          {error && (
            <Alert color="red" data-testid="signin-overlay-error">
              {error}
              {mustChange && (
                <>
                  {' '}
                  <Anchor
                    href={`/account/change-password?${new URLSearchParams({ username, 'return-url': window.location.pathname })}`}
                    data-testid="signin-overlay-change-password"
                  >
                    {t('signin.changePassword')}
                  </Anchor>
                </>
              )}
            </Alert>
          )}
          {codeStep && (
            <form onSubmit={submit}>
              <Stack>
                <TextInput
                  label={t('signin.code')}
                  description={t('signin.codeHint')}
                  name="code"
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                  error={error !== undefined}
                  required
                  data-autofocus
                  data-testid="signin-overlay-code"
                />
                {offerRemember && (
                  <Checkbox
                    label={t('signin.rememberDevice')}
                    checked={remember}
                    onChange={(e) => setRemember(e.currentTarget.checked)}
                    data-testid="signin-overlay-remember"
                  />
                )}
                <Button type="submit" loading={busy} data-testid="signin-overlay-code-submit">
                  {t('signin.verify')}
                </Button>
                <PasskeySignIn
                  returnUrl={location.pathname}
                  label={t('signin.usePasskey')}
                  remember={() => offerRemember && remember}
                  onSignedIn={(user) => {
                    setCodeStep(false);
                    setCode('');
                    signedIn(user);
                  }}
                />
              </Stack>
            </form>
          )}
          {showPassword && !codeStep && (
            <form onSubmit={submit}>
              <Stack>
                <TextInput
                  label={t('signin.username')}
                  name="username"
                  autoComplete="username"
                  value={username}
                  onChange={(e) => setUsername(e.currentTarget.value)}
                  error={error !== undefined}
                  required
                  data-autofocus
                  data-testid="signin-overlay-username"
                />
                <PasswordInput
                  label={t('signin.password')}
                  name="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                  error={error !== undefined}
                  required
                  data-testid="signin-overlay-password"
                />
                <Button type="submit" loading={busy} data-testid="signin-overlay-submit">
                  {t('signin.submit')}
                </Button>
              </Stack>
            </form>
          )}
          {sso && <SsoReauthenticate onSuccess={signedIn} onFailure={setError} />}
        </Stack>
      </Modal>
    </>
  );
}
