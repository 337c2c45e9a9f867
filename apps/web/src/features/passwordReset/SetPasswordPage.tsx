import { checkPassword, checkPasswordRepeat, type SetPasswordView, setPasswordRoute } from '@dossier/core';
import { Alert, Anchor, Button, Container, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { DisabledReason } from '../../ui/forms/DisabledReason';
import { useFieldErrors } from '../../ui/forms/useFieldErrors';
import { NarrowPage } from '../../ui/NarrowPage';
import { definePage } from '../../view/page';

/** /set-password?token=: the new password for the user the link names, checked against its policy. */
export const SetPasswordPage = definePage<SetPasswordView>(({ view }) => {
  const { t } = useTranslation();
  const { api } = useServices();
  const [params] = useSearchParams();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<'password' | 'repeat'>>(new Set());
  const reasonId = useId();
  const { errors: serverError, replace: setServerError, changed: fieldChanged } = useFieldErrors();
  if (!view.userId) {
    return (
      <Container size={420} py="xl">
        <Alert color="red" data-testid="set-password-error">
          {view.error}
        </Alert>
      </Container>
    );
  }
  const policyProblem =
    password && view.passwordPolicy ? checkPassword(password, view.passwordPolicy) : undefined;
  const repeatProblem = repeat ? checkPasswordRepeat(password, repeat) : undefined;
  // An emptied field says it is wanted; the first unmet rule is also said beside the grey button.
  const passwordMissing = password ? undefined : t('passwordReset.passwordRequired');
  const repeatMissing = view.requireRepeat && !repeat ? t('passwordReset.repeatRequired') : undefined;
  const blocked = passwordMissing ?? policyProblem ?? repeatMissing ?? repeatProblem;
  const ready = blocked === undefined;
  // Said beside the button only when no field says it already (a field not yet typed in).
  const shownAtField = [
    policyProblem,
    repeatProblem,
    touched.has('password') ? passwordMissing : undefined,
    touched.has('repeat') ? repeatMissing : undefined,
  ];
  const reason = blocked !== undefined && !shownAtField.includes(blocked) ? blocked : undefined;
  async function save() {
    setBusy(true);
    setServerError({});
    try {
      await api.call(setPasswordRoute, {
        body: { token: params.get('token') ?? '', password, repeat: view.requireRepeat ? repeat : undefined },
      });
      setChanged(true);
    } catch (error) {
      setServerError(
        error instanceof ApiError && error.fields
          ? error.fields
          : { password: String((error as Error).message) },
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <NarrowPage title={view.title} testId="set-password">
      {changed ? (
        <Stack>
          <Alert color="green" data-testid="password-changed">
            {t(view.firstPassword ? 'passwordReset.activated' : 'passwordReset.changed')}
          </Alert>
          <Anchor href="/signin" data-testid="password-changed-signin">
            {t('passwordReset.signIn')}
          </Anchor>
        </Stack>
      ) : (
        <Stack>
          <TextInput
            label={t('passwordReset.userId')}
            value={view.userId}
            readOnly
            data-testid="set-password-user"
          />
          <PasswordInput
            label={t('passwordReset.newPassword')}
            required
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              setTouched((s) => new Set(s).add('password'));
              fieldChanged('password', 'repeat');
            }}
            error={
              serverError.password ??
              serverError.token ??
              policyProblem ??
              (touched.has('password') ? passwordMissing : undefined)
            }
            styles={{ error: { whiteSpace: 'pre-line' } }}
            data-testid="set-password-password"
          />
          {view.requireRepeat && (
            <PasswordInput
              label={t('passwordReset.repeat')}
              required
              value={repeat}
              onChange={(e) => {
                setRepeat(e.currentTarget.value);
                setTouched((s) => new Set(s).add('repeat'));
                fieldChanged('repeat');
              }}
              error={
                serverError.repeat ?? repeatProblem ?? (touched.has('repeat') ? repeatMissing : undefined)
              }
              data-testid="set-password-repeat"
            />
          )}
          <Button
            onClick={() => void save()}
            disabled={!ready || busy}
            loading={busy}
            {...(reason !== undefined && { 'aria-describedby': reasonId })}
            data-testid="set-password-submit"
          >
            {t('passwordReset.save')}
          </Button>
          <DisabledReason id={reasonId} reason={reason} />
        </Stack>
      )}
      {!changed && (
        <Anchor component={Link} to="/signin" size="sm" mt="md" display="block">
          {t('passwordReset.backToSignIn')}
        </Anchor>
      )}
    </NarrowPage>
  );
});
