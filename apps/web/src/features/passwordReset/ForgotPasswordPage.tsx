import { type ForgotPasswordView, isValidEmail, resetPasswordRoute } from '@dossier/core';
import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServices } from '../../shell/ServicesContext';
import { NarrowPage } from '../../ui/NarrowPage';
import { definePage } from '../../view/page';

/** /forgot-password: the address to send a reset link to; afterwards the address it went to. */
export const ForgotPasswordPage = definePage<ForgotPasswordView>(({ view }) => {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string>();
  const [busy, setBusy] = useState(false);
  const valid = isValidEmail(email.trim());
  async function send() {
    setBusy(true);
    try {
      const answer = await api.call(resetPasswordRoute, { body: { email: email.trim() } });
      setSentTo(answer.email);
    } catch (error) {
      store.report(error);
    } finally {
      setBusy(false);
    }
  }
  return (
    <NarrowPage title={view.title} testId="forgot-password">
      {view.passwordsOff ? (
        <Alert color="blue" data-testid="reset-passwords-off">
          {t('passwordReset.passwordsOff')}
        </Alert>
      ) : sentTo ? (
        <Alert color="green" data-testid="reset-sent">
          {t('passwordReset.sent', { email: sentTo })}
        </Alert>
      ) : (
        <Stack>
          <TextInput
            label={t('passwordReset.email')}
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={email && !valid ? t('passwordReset.invalidEmail') : undefined}
            data-testid="reset-email"
          />
          <Button
            onClick={() => void send()}
            disabled={!valid || busy}
            loading={busy}
            data-testid="reset-submit"
          >
            {t('passwordReset.send')}
          </Button>
        </Stack>
      )}
      <Anchor component={Link} to="/signin" size="sm" mt="md" display="block">
        {t('passwordReset.backToSignIn')}
      </Anchor>
    </NarrowPage>
  );
});
