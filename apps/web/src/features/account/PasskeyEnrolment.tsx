import { addPasskeyRoute, passkeyRegistrationOptionsRoute } from '@dossier/core';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';

/**
 * Adds a passkey or security key (issue 35): a name, then the browser asks the authenticator to
 * create a credential with user verification, and the server checks and keeps it.
 */
export function PasskeyEnrolment({
  onDone,
  onCancel,
}: {
  onDone: (recoveryCodes: string[] | null) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { api } = useServices();
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function create() {
    setBusy(true);
    setErrors({});
    try {
      if (!name.trim())
        throw Object.assign(new Error(), { fields: { name: t('secondFactors.nameRequired') } });
      const options = await api.call(passkeyRegistrationOptionsRoute, {});
      const response = await startRegistration({
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      const answer = await api.call(addPasskeyRoute, { body: { name, response: response as never } });
      onDone(answer.recoveryCodes);
    } catch (error) {
      const fields = (error as { fields?: Record<string, string> }).fields;
      if (error instanceof ApiError)
        setErrors(error.fields ?? { form: error.serverMessage ?? error.message });
      else if (fields) setErrors(fields);
      else setErrors({ form: t('secondFactors.passkeyFailed') });
      setBusy(false);
    }
  }

  return (
    <Stack data-testid="passkey-enrolment">
      <Text size="sm">{t('secondFactors.passkeyHint')}</Text>
      <TextInput
        label={t('secondFactors.name')}
        description={t('secondFactors.passkeyNameHint')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name}
        required
        data-testid="passkey-name"
      />
      {errors.form && (
        <Text c="red" size="sm" data-testid="passkey-error">
          {errors.form}
        </Text>
      )}
      <Group>
        <Button loading={busy} onClick={() => void create()} data-testid="passkey-create">
          {t('secondFactors.passkeyCreate')}
        </Button>
        <Button variant="default" onClick={onCancel}>
          {t('secondFactors.cancel')}
        </Button>
      </Group>
    </Stack>
  );
}
