import {
  APPLICANT_REFERENCE_TYPES,
  REQUEST_SETTINGS_FLAGS,
  REQUEST_SETTINGS_RECIPIENTS,
} from '@dossier/core';
import { Checkbox, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FileField } from '../../../ui/files/FileField';
import { CommittedTextInput, LinesInput, RequestNumberPrefixInput, ScopePathInput } from '../../../ui/inputs';
import type { EditorProps } from '../types';
import { placeholderError } from './common';

/** An example name per file kind: each names its own kind of file (the invoice one said -result). */
const FILE_NAME_EXAMPLES = {
  customResultFileName: '${request.requestNumber}-result',
  customInvoiceFileName: '${request.requestNumber}-invoice-${invoice.number}',
} as const;

export function RequestSettingsEditor({
  data,
  onChange,
  errors,
  disabled,
  view,
}: EditorProps<'requestSettingsEntry'>) {
  const { t } = useTranslation();
  const set = (change: Partial<typeof data>) => onChange({ ...data, ...change });
  const types = view.choices.requestItemTypes;
  const categoryName = (parentId: string) => types.find((x) => x.id === parentId)?.name;
  // Item types grouped by their category (the item type entry above them).
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const type of types) {
    const group = categoryName(type.parentId) ?? t('configuration.requestSettings.topLevelTypes');
    groups.set(group, [...(groups.get(group) ?? []), { value: type.id, label: type.name }]);
  }
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2}>
        <RequestNumberPrefixInput
          label={t('configuration.requestSettings.requestNumberPrefix')}
          required
          value={data.requestNumberPrefix}
          onCommit={(v) => set({ requestNumberPrefix: v })}
          error={errors.requestNumberPrefix}
          disabled={disabled}
          data-testid="request-number-prefix"
        />
        <ScopePathInput
          label={t('configuration.requestSettings.sharedScopePath')}
          value={data.sharedScopePath}
          onCommit={(v) => set({ sharedScopePath: v })}
          error={errors.sharedScopePath}
          disabled={disabled}
        />
      </SimpleGrid>
      <Text fw={600}>{t('configuration.requestSettings.recipients')}</Text>
      <SimpleGrid cols={2}>
        {REQUEST_SETTINGS_RECIPIENTS.map((f) => (
          <CommittedTextInput
            key={f}
            type="email"
            label={t(`configuration.requestSettings.${f}`)}
            value={data[f]}
            onCommit={(v) => set({ [f]: v.trim() })}
            error={errors[f]}
            disabled={disabled}
          />
        ))}
      </SimpleGrid>
      <Text fw={600}>{t('configuration.requestSettings.flags')}</Text>
      <SimpleGrid cols={2} spacing="xs">
        {REQUEST_SETTINGS_FLAGS.map((f) => (
          <Checkbox
            key={f}
            label={t(`configuration.requestSettings.${f}`)}
            checked={data[f]}
            onChange={(e) => set({ [f]: e.currentTarget.checked })}
            disabled={disabled}
          />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={2}>
        {(['notifyOtherWhenClosed', 'notifyOtherWhenReOpened'] as const).map((f) => (
          <LinesInput
            key={f}
            label={t(`configuration.requestSettings.${f}`)}
            description={t('configuration.emailsHint')}
            value={data[f]}
            onCommit={(v) => set({ [f]: v })}
            error={errors[f]}
            disabled={disabled}
          />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={3}>
        <FileField
          label={t('configuration.requestSettings.smartFormLogo')}
          value={data.smartFormLogo}
          onChange={(v) => set({ smartFormLogo: v })}
          accept="image/png,image/jpeg"
          publicRead
          disabled={disabled}
        />
        <FileField
          label={t('configuration.requestSettings.remittanceAdviceLogo')}
          value={data.remittanceAdviceLogo}
          onChange={(v) => set({ remittanceAdviceLogo: v })}
          accept="image/png,image/jpeg"
          publicRead
          disabled={disabled}
        />
        <FileField
          label={t('configuration.requestSettings.preLoadedApplicantAuthority')}
          value={data.preLoadedApplicantAuthority}
          onChange={(v) => set({ preLoadedApplicantAuthority: v })}
          accept="application/pdf"
          disabled={disabled}
        />
      </SimpleGrid>
      <SimpleGrid cols={2}>
        <Checkbox
          mt="lg"
          label={t('configuration.requestSettings.applicantReference1Required')}
          checked={data.applicantReference1Required}
          onChange={(e) => set({ applicantReference1Required: e.currentTarget.checked })}
          disabled={disabled}
        />
        <Select
          label={t('configuration.requestSettings.applicantReference1DefaultType')}
          clearable
          value={data.applicantReference1DefaultType}
          data={APPLICANT_REFERENCE_TYPES.map((v) => ({
            value: v,
            label: t(`configuration.referenceTypes.${v}`),
          }))}
          onChange={(v) =>
            set({ applicantReference1DefaultType: (v as typeof data.applicantReference1DefaultType) ?? null })
          }
          disabled={disabled}
        />
      </SimpleGrid>
      <SimpleGrid cols={2}>
        {(['customResultFileName', 'customInvoiceFileName'] as const).map((f) => (
          <CommittedTextInput
            key={f}
            label={t(`configuration.requestSettings.${f}`)}
            placeholder={FILE_NAME_EXAMPLES[f]}
            data-testid={f}
            value={data[f]}
            onCommit={(v) => set({ [f]: v })}
            error={placeholderError(data[f]) ?? errors[f]}
            disabled={disabled}
          />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={2}>
        {(['recipientAccessDays', 'recipientUploadLimitMb'] as const).map((f) => (
          <NumberInput
            key={f}
            label={t(`configuration.requestSettings.${f}`)}
            data-testid={f}
            min={1}
            allowDecimal={false}
            value={data[f]}
            onChange={(v) => typeof v === 'number' && set({ [f]: v })}
            error={errors[f]}
            disabled={disabled}
          />
        ))}
      </SimpleGrid>
      <div>
        <MultiSelect
          label={t('configuration.requestSettings.preSelectedRequestItemTypes')}
          value={data.preSelectedRequestItemTypes}
          data={[...groups.entries()].map(([group, items]) => ({ group, items }))}
          onChange={(v) => set({ preSelectedRequestItemTypes: v })}
          searchable
          disabled={disabled}
        />
        {data.preSelectedRequestItemTypes.length === 0 && (
          <Text size="sm" c="dimmed" mt={4} data-testid="no-request-types">
            {t('configuration.requestSettings.noRequestTypes')}
          </Text>
        )}
      </div>
    </Stack>
  );
}
