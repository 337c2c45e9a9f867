import { clearLockoutRoute } from '@dossier/core';
import { Alert, Button, Group } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';

/**
 * The lock after repeated failed sign-ins, with Clear Lockout. Clearing is its own call and acts at
 * once: the lock is not part of the form, so nothing else the administrator typed is saved with it
 * and the form stays as it was.
 */
export function LockoutNotice({ userId, disabled }: { userId: string; disabled: boolean }) {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const [busy, setBusy] = useState(false);
  const [cleared, setCleared] = useState(false);

  async function clear() {
    setBusy(true);
    try {
      await api.call(clearLockoutRoute, { params: { userId } });
      // The view keeps its flag until it is next loaded; a save sends it unchanged, which the
      // server ignores (only false clears a lock).
      setCleared(true);
    } catch (error) {
      store.report(error);
    } finally {
      setBusy(false);
    }
  }

  if (cleared)
    return (
      <Alert color="green" data-testid="lockout-cleared">
        {t('admin.users.lockoutCleared')}
      </Alert>
    );
  return (
    <Alert color="orange" data-testid="locked-out">
      <Group justify="space-between">
        {t('admin.users.lockedOut')}
        <Button
          size="xs"
          variant="white"
          disabled={disabled || busy}
          loading={busy}
          onClick={() => void clear()}
          data-testid="unlock"
        >
          {t('admin.users.unlock')}
        </Button>
      </Group>
    </Alert>
  );
}
