import type { UserState } from '@dossier/core';
import { Button } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** How often the sign-in window is checked for having been closed. */
export const SSO_WINDOW_POLL_MS = 100;
export const SSO_RETURN_TARGET = '/sso/reauthenticated';

interface Props {
  onSuccess(user: UserState): void;
  onFailure(message: string): void;
}

/**
 * Single sign-on re-authentication: a window signs in with the return target
 * /sso/reauthenticated, whose page posts `{ success, user }` back to this window.
 */
export function SsoReauthenticate({ onSuccess, onFailure }: Props) {
  const { t } = useTranslation();
  const cleanup = useRef<(() => void) | undefined>(undefined);
  useEffect(() => () => cleanup.current?.(), []);

  function open() {
    cleanup.current?.();
    const url = `/signin?sso=1&return-url=${encodeURIComponent(SSO_RETURN_TARGET)}`;
    const popup = window.open(url, 'dossier-sso', 'width=600,height=700');
    if (!popup) {
      onFailure(t('signin.ssoWindowBlocked'));
      return;
    }
    let settled = false;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== popup) return;
      const data = event.data as { success?: boolean; user?: UserState } | null;
      if (!data || typeof data.success !== 'boolean') return;
      settled = true;
      stop();
      if (data.success && data.user) onSuccess(data.user);
      else onFailure(t('signin.failed'));
    };
    const timer = window.setInterval(() => {
      if (popup.closed) {
        stop();
        if (!settled) onFailure(t('signin.ssoWindowClosed'));
      }
    }, SSO_WINDOW_POLL_MS);
    function stop() {
      window.clearInterval(timer);
      window.removeEventListener('message', onMessage);
      cleanup.current = undefined;
    }
    window.addEventListener('message', onMessage);
    cleanup.current = stop;
  }

  return (
    <Button variant="default" onClick={open} data-testid="signin-overlay-sso">
      {t('signin.usingSso')}
    </Button>
  );
}
