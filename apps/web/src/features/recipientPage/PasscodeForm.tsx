import { type RecipientPageView, recipientPasscodeRoute } from '@dossier/core';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { NarrowPage } from '../../ui/NarrowPage';

/** The link alone shows only this: the passcode that came with it opens the request. */
export function PasscodeForm({ view }: { view: RecipientPageView }) {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const [passcode, setPasscode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function open() {
    setBusy(true);
    setError(undefined);
    try {
      const opened = await api.call(recipientPasscodeRoute, {
        params: { token: view.token },
        body: { passcode },
      });
      store.patch(() => opened);
    } catch (failure) {
      if (failure instanceof ApiError && failure.fields?.passcode) setError(failure.fields.passcode);
      else if (failure instanceof ApiError && failure.serverMessage) setError(failure.serverMessage);
      else store.report(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <NarrowPage title={t('recipientPage.passcodeTitle')} testId="recipient-passcode">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void open();
        }}
      >
        <Stack>
          <Text size="sm">{t('recipientPage.passcodeIntro')}</Text>
          <TextInput
            label={t('recipientPage.passcode')}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            value={passcode}
            onChange={(e) => setPasscode(e.currentTarget.value)}
            error={error}
            data-testid="recipient-passcode-input"
          />
          <Button
            type="submit"
            disabled={!passcode.trim() || busy}
            loading={busy}
            data-testid="recipient-open"
          >
            {t('recipientPage.open')}
          </Button>
        </Stack>
      </form>
    </NarrowPage>
  );
}
