import { resetSecondFactorsRoute, type SecondFactorKind } from '@dossier/core';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';

/**
 * Whether the user holds a second factor and of which kind (never its secret), with Reset Second
 * Factors for a user who lost theirs: it acts at once, like Clear Lockout, and is not form data.
 */
export function SecondFactorNotice({
  userId,
  kinds,
  disabled,
}: {
  userId: string;
  kinds: readonly SecondFactorKind[];
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  async function reset() {
    if (!window.confirm(t('secondFactors.adminResetConfirm'))) return;
    setBusy(true);
    try {
      await api.call(resetSecondFactorsRoute, { params: { userId } });
      setDone(true);
    } catch (error) {
      store.report(error);
    } finally {
      setBusy(false);
    }
  }

  if (done)
    return (
      <Alert color="green" data-testid="second-factors-reset-done">
        {t('secondFactors.adminResetDone')}
      </Alert>
    );
  return (
    <Group justify="space-between" data-testid="user-second-factors">
      <Text size="sm">
        {t('secondFactors.adminTitle')}:{' '}
        <span data-testid="user-second-factor-kinds">
          {kinds.length === 0
            ? t('secondFactors.adminNone')
            : kinds.map((k) => t(`secondFactors.kinds.${k}`)).join(', ')}
        </span>
      </Text>
      {kinds.length > 0 && (
        <Button
          size="xs"
          variant="default"
          color="red"
          disabled={disabled || busy}
          loading={busy}
          onClick={() => void reset()}
          data-testid="user-second-factors-reset"
        >
          {t('secondFactors.adminReset')}
        </Button>
      )}
    </Group>
  );
}
