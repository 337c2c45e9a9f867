import {
  ACCESS_LOG_MIN_MONTHS,
  API_SCOPES,
  decodeRsaPublicKey,
  parseHolidayLines,
  RETENTION_MAX_MONTHS,
  RsaKeyError,
  rsaPublicKeyToPem,
  WORKFLOW_TASK_TYPES,
} from '@dossier/core';
import { Checkbox, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CommittedTextInput, IntegerInput, LinesInput, TimeOfDayInput, UrlInput } from '../../../ui/inputs';
import type { EditorProps } from '../types';
import { WebhookDeliveries } from './WebhookDeliveries';

export function RootEditor({ data }: EditorProps<'configurationRoot'>) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('configuration.fields.scopePath')}
      value={data.scopePath}
      readOnly
      data-testid="root-scope-path"
    />
  );
}

export function ApiKeyEditor({ data, onChange, errors, disabled, view }: EditorProps<'apiKeyEntry'>) {
  const { t } = useTranslation();
  const pem = data.publicKey ? rsaPublicKeyToPem(data.publicKey) : '';
  const [text, setText] = useState(pem);
  const [error, setError] = useState<string>();
  function read(value: string) {
    setText(value);
    if (!value.trim()) {
      setError(undefined);
      onChange({ ...data, publicKey: null });
      return;
    }
    try {
      const key = decodeRsaPublicKey(value);
      setError(undefined);
      setText(rsaPublicKeyToPem(key));
      onChange({ ...data, publicKey: key });
    } catch (e) {
      setError(e instanceof RsaKeyError ? e.message : String(e));
    }
  }
  return (
    <Stack gap="sm">
      <TextInput label={t('configuration.apiKey.keyId')} value={view.entry.id} readOnly />
      <Textarea
        label={t('configuration.apiKey.publicKey')}
        description={t('configuration.apiKey.publicKeyHint')}
        autosize
        minRows={4}
        styles={{ input: { fontFamily: 'monospace' } }}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onBlur={(e) => read(e.currentTarget.value)}
        onPaste={(e) => {
          e.preventDefault();
          read(e.clipboardData.getData('text'));
        }}
        error={error ?? errors.publicKey}
        disabled={disabled}
        data-testid="api-key-public-key"
      />
      <Checkbox.Group
        label={t('configuration.apiKey.apiScopes')}
        value={data.apiScopes}
        onChange={(v) => onChange({ ...data, apiScopes: v as typeof data.apiScopes })}
      >
        <SimpleGrid cols={3} mt="xs">
          {API_SCOPES.map((s) => (
            <Checkbox key={s} value={s} label={s} disabled={disabled} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
    </Stack>
  );
}

export function ApiWebhookEditor({ data, onChange, errors, disabled, view }: EditorProps<'apiWebhookEntry'>) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <UrlInput
        label={t('configuration.webhook.url')}
        httpsOnly
        required
        value={data.url}
        onCommit={(url) => onChange({ ...data, url })}
        error={errors.url}
        disabled={disabled}
        data-testid="webhook-url"
      />
      {!view.isNew && (
        <>
          <TextInput label={t('configuration.fields.id')} value={view.entry.id} readOnly />
          <Textarea
            label={t('configuration.webhook.publicKey')}
            value={data.publicKey ?? ''}
            readOnly
            autosize
            styles={{ input: { fontFamily: 'monospace' } }}
            data-testid="webhook-public-key"
          />
          <WebhookDeliveries configurationId={view.configuration.id} entryId={view.entry.id} />
        </>
      )}
    </Stack>
  );
}

export function PublicHolidaysEditor({ data, onChange, disabled }: EditorProps<'publicHolidaysEntry'>) {
  const { t } = useTranslation();
  return (
    <LinesInput
      label={t('configuration.holidays.dates')}
      description={t('configuration.holidays.hint')}
      value={data.dates}
      parse={parseHolidayLines}
      onCommit={(dates) => onChange({ dates })}
      disabled={disabled}
      minRows={6}
      data-testid="holiday-dates"
    />
  );
}

export function SmartFormOptionEditor({ data, onChange, disabled }: EditorProps<'smartFormOptionEntry'>) {
  const { t } = useTranslation();
  return (
    <CommittedTextInput
      label={t('configuration.fields.foreignId')}
      value={data.foreignId}
      onCommit={(foreignId) => onChange({ foreignId })}
      disabled={disabled}
    />
  );
}

export function TaskTypeSettingsEditor({
  data,
  onChange,
  errors,
  disabled,
}: EditorProps<'taskTypeSettingsEntry'>) {
  const { t } = useTranslation();
  const flags = [
    'notifyRequestSenderWhenTriggered',
    'notifyRequestSenderWhenCompleted',
    'notifyExternalUsersWhenTriggered',
    'notifyExternalUsersWhenCompleted',
  ] as const;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2}>
        <Select
          label={t('configuration.taskType.taskType')}
          value={data.taskType}
          onChange={(v) => v && onChange({ ...data, taskType: v as typeof data.taskType })}
          data={WORKFLOW_TASK_TYPES.map((v) => ({ value: v, label: t(`configuration.taskTypes.${v}`) }))}
          disabled={disabled}
        />
        <IntegerInput
          label={t('configuration.taskType.defaultDueDateInBusinessDays')}
          value={data.defaultDueDateInBusinessDays}
          min={0}
          max={365}
          onCommit={(v) => onChange({ ...data, defaultDueDateInBusinessDays: v ?? 0 })}
          error={errors.defaultDueDateInBusinessDays}
          disabled={disabled}
        />
        <TimeOfDayInput
          label={t('configuration.taskType.dueTimeOfDay')}
          description={t('configuration.taskType.dueTimeOfDayHint')}
          value={data.dueTimeOfDay ?? ''}
          onCommit={(v) => onChange({ ...data, dueTimeOfDay: v })}
          error={errors.dueTimeOfDay}
          disabled={disabled}
          data-testid="due-time-of-day"
        />
      </SimpleGrid>
      {flags.map((f) => (
        <Checkbox
          key={f}
          label={t(`configuration.taskType.${f}`)}
          checked={data[f]}
          onChange={(e) => onChange({ ...data, [f]: e.currentTarget.checked })}
          disabled={disabled}
        />
      ))}
      <SimpleGrid cols={2}>
        {(['notifyOtherWhenTriggered', 'notifyOtherWhenCompleted'] as const).map((f) => (
          <LinesInput
            key={f}
            label={t(`configuration.taskType.${f}`)}
            description={t('configuration.emailsHint')}
            value={data[f]}
            onCommit={(v) => onChange({ ...data, [f]: v })}
            error={errors[f]}
            disabled={disabled}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

export function RetentionEditor({ data, onChange, errors, disabled }: EditorProps<'retentionEntry'>) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <IntegerInput
        label={t('configuration.retention.deleteFilesAfterMonths')}
        description={t('configuration.retention.deleteFilesAfterMonthsHint')}
        min={1}
        max={RETENTION_MAX_MONTHS}
        value={data.deleteFilesAfterMonths ?? undefined}
        onCommit={(v) => onChange({ ...data, deleteFilesAfterMonths: v ?? null })}
        error={errors.deleteFilesAfterMonths}
        disabled={disabled}
        data-testid="retention-files-months"
      />
      <IntegerInput
        label={t('configuration.retention.deIdentifyAfterMonths')}
        description={t('configuration.retention.deIdentifyAfterMonthsHint')}
        min={1}
        max={RETENTION_MAX_MONTHS}
        value={data.deIdentifyAfterMonths ?? undefined}
        onCommit={(v) => onChange({ ...data, deIdentifyAfterMonths: v ?? null })}
        error={errors.deIdentifyAfterMonths}
        disabled={disabled}
        data-testid="retention-personal-months"
      />
      <IntegerInput
        label={t('configuration.retention.keepAccessLogMonths')}
        description={t('configuration.retention.keepAccessLogMonthsHint')}
        min={ACCESS_LOG_MIN_MONTHS}
        max={RETENTION_MAX_MONTHS}
        value={data.keepAccessLogMonths ?? undefined}
        onCommit={(v) => onChange({ ...data, keepAccessLogMonths: v ?? null })}
        error={errors.keepAccessLogMonths}
        disabled={disabled}
        data-testid="retention-access-log-months"
      />
    </Stack>
  );
}
