import type { WizardOrganization } from '@dossier/core';
import { Alert, Loader, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WizardDraft } from './useWizardDraft';

/** Sender: the organisation (which loads its data), on whose behalf, and the sender's reference. */
export function SenderStep(props: {
  draft: WizardDraft;
  organizations: WizardOrganization[];
  errorOf(field: string): string | undefined;
}) {
  const { t } = useTranslation();
  const { draft } = props;
  const sender = draft.data.sender ?? {};
  const status = draft.senderStatus;
  const failed = status.state === 'failed';
  return (
    <Stack data-testid="wizard-sender">
      {props.organizations.length === 0 && <Alert color="yellow">{t('wizard.sender.noOrganizations')}</Alert>}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('wizard.sender.organization')}
          required
          data={props.organizations.map((o) => ({ value: o.scopePath, label: o.name }))}
          value={sender.organization || null}
          allowDeselect={false}
          onChange={(value) => draft.chooseOrganization(value)}
          error={props.errorOf('sender.organization')}
          rightSection={status.state === 'loading' ? <Loader size="xs" /> : undefined}
          data-testid="wizard-organization"
        />
        <Select
          label={t('wizard.sender.submittedOnBehalfOf')}
          data={(draft.senderData?.submitters ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={sender.submittedOnBehalfOf ?? null}
          onChange={(value) =>
            draft.update((d) => ({ ...d, sender: { ...d.sender, submittedOnBehalfOf: value } }))
          }
          clearable
          searchable
          disabled={!draft.senderData}
          error={failed || props.errorOf('sender.submittedOnBehalfOf')}
          data-testid="wizard-on-behalf-of"
        />
        <TextInput
          label={t('wizard.sender.referenceNumber')}
          value={sender.referenceNumber ?? ''}
          maxLength={100}
          onChange={(e) => {
            const referenceNumber = e.currentTarget.value;
            draft.update((d) => ({ ...d, sender: { ...d.sender, referenceNumber } }));
          }}
          data-testid="wizard-reference-number"
        />
      </SimpleGrid>
      {failed && (
        <Alert color="red" data-testid="wizard-sender-error">
          {t('wizard.sender.loadFailed', { message: status.message })}
        </Alert>
      )}
    </Stack>
  );
}
