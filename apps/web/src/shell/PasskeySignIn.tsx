import { passkeySignInOptionsRoute, passkeySignInRoute, type UserState } from '@dossier/core';
import { Alert, Button, Stack } from '@mantine/core';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { useServices } from './ServicesContext';

/**
 * Signs in with a passkey (issue 35): after the password as the second step, or alone where the
 * configuration allows it. The server decides which by the waiting sign-in's cookie; the page
 * then loads the return address, signed in, or (the sign-in overlay) `onSignedIn` takes the user.
 */
export function PasskeySignIn({
  returnUrl,
  label,
  onSignedIn,
  remember,
}: {
  returnUrl: string;
  label: string;
  onSignedIn?: (user: UserState) => void;
  /** Whether the second step's "Remember this device" box is ticked (read when the passkey answers). */
  remember?: () => boolean;
}) {
  const { t } = useTranslation();
  const { api } = useServices();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function signIn() {
    setBusy(true);
    setError(undefined);
    try {
      // Loaded on use: the sign-in page is part of the first load, and most people type a password.
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const options = await api.call(passkeySignInOptionsRoute, {});
      const response = await startAuthentication({
        optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      });
      const answer = await api.call(passkeySignInRoute, {
        body: {
          response: response as never,
          'return-url': returnUrl,
          ...(remember?.() ? { remember: '1' } : {}),
        },
      });
      if (onSignedIn && answer.user) {
        setBusy(false);
        onSignedIn(answer.user);
      } else window.location.assign(answer.redirect);
    } catch (e) {
      if (e instanceof ApiError) setError(e.serverMessage ?? e.message);
      else if (e instanceof Error && (e.name === 'NotAllowedError' || e.name === 'WebAuthnError'))
        setError(t('signin.passkeyCancelled'));
      else setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs">
      {error && (
        <Alert color="red" data-testid="signin-passkey-error">
          {error}
        </Alert>
      )}
      <Button
        variant="default"
        fullWidth
        loading={busy}
        onClick={() => void signIn()}
        data-testid="signin-passkey"
      >
        {label}
      </Button>
    </Stack>
  );
}
