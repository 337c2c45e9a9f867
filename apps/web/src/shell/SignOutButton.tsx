import { signOutRoute } from '@dossier/core';
import { Button } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { useServices } from './ServicesContext';

/**
 * Sign-out is a form POST to /signout. With JavaScript it is sent with X-Requested-With (the CSRF
 * rule of every state-changing call), the live connection closes, and /signin is loaded in full
 * (after the identity provider's sign-out, for a session begun through single sign-on).
 */
export function SignOutButton() {
  const { t } = useTranslation();
  const services = useServices();
  const [busy, setBusy] = useState(false);

  async function signOut(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    // A single sign-on session is signed out at the identity provider too, which comes back to /signin.
    let target = '/signin';
    try {
      const result = await services.api.call(signOutRoute, {});
      if (result.redirect) target = result.redirect;
    } catch (error) {
      // Already signed out (401) is as good as signed out.
      if (!(error instanceof ApiError && error.status === 401)) {
        setBusy(false);
        services.view.report(error);
        return;
      }
    }
    services.session.set({ user: null });
    window.location.assign(target);
  }

  return (
    <form method="post" action="/signout" onSubmit={signOut}>
      <Button
        type="submit"
        variant="subtle"
        size="compact-sm"
        loading={busy}
        leftSection={<IconLogout size={16} />}
        data-testid="signout"
      >
        {t('shell.signOut')}
      </Button>
    </form>
  );
}
