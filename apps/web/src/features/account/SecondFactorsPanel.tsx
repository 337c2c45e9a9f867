import {
  confirmSecondFactorRoute,
  enrolSecondFactorRoute,
  regenerateRecoveryCodesRoute,
  removeSecondFactorRoute,
  type SecondFactorList,
  secondFactorsRoute,
} from '@dossier/core';
import {
  Alert,
  Button,
  Code,
  Group,
  Image,
  Paper,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { PasskeyEnrolment } from './PasskeyEnrolment';
import { RecoveryCodesShown } from './RecoveryCodesShown';

type Enrolment = { id: string; secret: string; qr: string };

/** The field errors of a refused call, or the message of another failure under `form`. */
function errorsOf(error: unknown): Record<string, string> {
  if (error instanceof ApiError) return error.fields ?? { form: error.serverMessage ?? error.message };
  return { form: error instanceof Error ? error.message : String(error) };
}

/**
 * The account's second factors (issue 35): the list (name, kind, added), enrolling a code
 * generator (QR code and secret in text, a first code confirms it, a name), removing one (the last
 * needs the current password and a code) and the recovery codes, shown once.
 */
export function SecondFactorsPanel() {
  const { t, i18n } = useTranslation();
  const { api } = useServices();
  const [list, setList] = useState<SecondFactorList | undefined>();
  const [enrolment, setEnrolment] = useState<Enrolment | undefined>();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [removing, setRemoving] = useState<string | undefined>();
  const [regenerating, setRegenerating] = useState(false);
  const [addingPasskey, setAddingPasskey] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | undefined>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => setList(await api.call(secondFactorsRoute, {})), [api]);
  useEffect(() => {
    void load();
  }, [load]);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setErrors({});
    try {
      await action();
    } catch (error) {
      setErrors(errorsOf(error));
    } finally {
      setBusy(false);
    }
  }

  const reset = () => {
    setEnrolment(undefined);
    setRemoving(undefined);
    setRegenerating(false);
    setAddingPasskey(false);
    setName('');
    setCode('');
    setPassword('');
    setErrors({});
  };

  const begin = () =>
    run(async () => {
      reset();
      const begun = await api.call(enrolSecondFactorRoute, { body: { kind: 'totp' } });
      setEnrolment(begun);
    });

  const confirm = () =>
    run(async () => {
      if (!enrolment) return;
      const answer = await api.call(confirmSecondFactorRoute, {
        params: { factorId: enrolment.id },
        body: { name, code },
      });
      reset();
      if (answer.recoveryCodes) setRecoveryCodes(answer.recoveryCodes);
      await load();
    });

  const remove = (factorId: string, last: boolean) =>
    run(async () => {
      if (last && removing !== factorId) {
        reset();
        setRemoving(factorId);
        return;
      }
      await api.call(removeSecondFactorRoute, {
        params: { factorId },
        body: last ? { password, code } : {},
      });
      reset();
      await load();
    });

  const regenerate = () =>
    run(async () => {
      const answer = await api.call(regenerateRecoveryCodesRoute, { body: { code } });
      reset();
      setRecoveryCodes(answer.recoveryCodes);
      await load();
    });

  const factors = list?.factors ?? [];
  const dateOf = (iso: string) => new Date(iso).toLocaleDateString(i18n.language);

  return (
    <Paper withBorder p="md" data-testid="second-factors">
      <Stack>
        <Title order={4}>{t('secondFactors.title')}</Title>
        <Text size="sm">{t('secondFactors.intro')}</Text>
        {errors.form && (
          <Alert color="red" data-testid="second-factors-error">
            {errors.form}
          </Alert>
        )}
        {recoveryCodes && (
          <RecoveryCodesShown codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />
        )}
        {factors.length === 0 ? (
          enrolment ? null : (
            <Text c="dimmed" data-testid="second-factors-none">
              {t('secondFactors.none')}
            </Text>
          )
        ) : (
          <Table data-testid="second-factors-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('secondFactors.name')}</Table.Th>
                <Table.Th>{t('secondFactors.kind')}</Table.Th>
                <Table.Th>{t('secondFactors.added')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {factors.map((f) => (
                <Table.Tr key={f.id} data-testid="second-factor-row">
                  <Table.Td>{f.name}</Table.Td>
                  <Table.Td>{t(`secondFactors.kinds.${f.kind}`)}</Table.Td>
                  <Table.Td>{dateOf(f.addedAt)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      disabled={busy}
                      onClick={() => void remove(f.id, factors.length === 1)}
                      data-testid="second-factor-remove"
                    >
                      {t('secondFactors.remove')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {factors.length > 0 && (
          <Text size="sm" data-testid="recovery-codes-left">
            {t('secondFactors.recoveryLeft', { count: list?.recoveryCodesLeft ?? 0 })}
          </Text>
        )}
        {removing && (
          <Stack data-testid="second-factor-remove-form">
            <Text size="sm">{t('secondFactors.removeLast')}</Text>
            <PasswordInput
              label={t('secondFactors.password')}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={errors.password}
              autoComplete="current-password"
              data-testid="second-factor-remove-password"
            />
            <TextInput
              label={t('secondFactors.code')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={errors.code}
              autoComplete="one-time-code"
              data-testid="second-factor-remove-code"
            />
            <Group>
              <Button
                color="red"
                loading={busy}
                onClick={() => void remove(removing, true)}
                data-testid="second-factor-remove-confirm"
              >
                {t('secondFactors.confirmRemove')}
              </Button>
              <Button variant="default" onClick={reset}>
                {t('secondFactors.cancel')}
              </Button>
            </Group>
          </Stack>
        )}
        {regenerating && (
          <Stack data-testid="recovery-regenerate-form">
            <Text size="sm">{t('secondFactors.regenerateHint')}</Text>
            <TextInput
              label={t('secondFactors.code')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={errors.code}
              autoComplete="one-time-code"
              data-testid="recovery-regenerate-code"
            />
            <Group>
              <Button
                loading={busy}
                onClick={() => void regenerate()}
                data-testid="recovery-regenerate-confirm"
              >
                {t('secondFactors.regenerate')}
              </Button>
              <Button variant="default" onClick={reset}>
                {t('secondFactors.cancel')}
              </Button>
            </Group>
          </Stack>
        )}
        {enrolment && (
          <Stack data-testid="second-factor-enrolment">
            <Text size="sm">{t('secondFactors.scan')}</Text>
            <Image src={enrolment.qr} w={220} h={220} alt="QR" data-testid="second-factor-qr" />
            <Text size="sm">
              {t('secondFactors.secret')}: <Code data-testid="second-factor-secret">{enrolment.secret}</Code>
            </Text>
            <TextInput
              label={t('secondFactors.name')}
              description={t('secondFactors.nameHint')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
              required
              data-testid="second-factor-name"
            />
            <TextInput
              label={t('secondFactors.code')}
              description={t('secondFactors.codeHint')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={errors.code}
              autoComplete="one-time-code"
              required
              data-testid="second-factor-code"
            />
            <Group>
              <Button loading={busy} onClick={() => void confirm()} data-testid="second-factor-confirm">
                {t('secondFactors.confirm')}
              </Button>
              <Button variant="default" onClick={reset}>
                {t('secondFactors.cancel')}
              </Button>
            </Group>
          </Stack>
        )}
        {addingPasskey && (
          <PasskeyEnrolment
            onCancel={reset}
            onDone={(codes) => {
              reset();
              if (codes) setRecoveryCodes(codes);
              void load();
            }}
          />
        )}
        {!enrolment && !removing && !regenerating && !addingPasskey && (
          <Group>
            <Button
              variant="default"
              disabled={busy}
              onClick={() => void begin()}
              data-testid="second-factor-add"
            >
              {t('secondFactors.add')}
            </Button>
            <Button
              variant="default"
              disabled={busy}
              onClick={() => {
                reset();
                setAddingPasskey(true);
              }}
              data-testid="passkey-add"
            >
              {t('secondFactors.addPasskey')}
            </Button>
            {factors.length > 0 && (
              <Button
                variant="subtle"
                onClick={() => {
                  reset();
                  setRegenerating(true);
                }}
                data-testid="recovery-regenerate"
              >
                {t('secondFactors.regenerate')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
