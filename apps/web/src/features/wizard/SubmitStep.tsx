import { countryName, type WizardOrganization } from '@dossier/core';
import { Alert, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentAnswers } from '../../ui/ContentAnswers';
import { formatDate } from '../../ui/dates';
import type { WizardDraft } from './useWizardDraft';

function Part(props: { title: string; children: ReactNode; testId: string }) {
  return (
    <Paper withBorder p="md" data-testid={props.testId}>
      <Title order={6} mb="xs">
        {props.title}
      </Title>
      {props.children}
    </Paper>
  );
}

type Line = [label: string, value: string | null | undefined];

/** Every field the submitter filled, labelled as on its step; empty ones are left out. */
function Lines(props: { lines: Line[] }) {
  return (
    <>
      {props.lines
        .filter(([, value]) => value != null && value.trim() !== '')
        .map(([label, value]) => (
          <Text key={label} size="sm" style={{ whiteSpace: 'pre-line' }} data-testid="review-line">
            <Text span c="dimmed" size="sm">
              {label}:
            </Text>{' '}
            {value}
          </Text>
        ))}
    </>
  );
}

/** Submit: the request as it will be sent, and the server's field errors if it refused it. */
export function SubmitStep(props: {
  draft: WizardDraft;
  organizations: WizardOrganization[];
  serverErrors: Record<string, string>;
}) {
  const { t } = useTranslation();
  const { data, senderData } = props.draft;
  const organization = props.organizations.find((o) => o.scopePath === data.sender?.organization);
  const onBehalfOf = senderData?.submitters.find((s) => s.id === data.sender?.submittedOnBehalfOf);
  const a = data.applicant ?? {};
  const r = data.recipient ?? {};
  const c = data.content ?? {};
  const referenceType = (type: string | null | undefined) =>
    type ? t(`wizard.referenceTypes.${type}`, { defaultValue: type }) : '';
  const reference = (value: string | null | undefined, type: string | null | undefined) =>
    value ? [value, referenceType(type)].filter(Boolean).join(' · ') : null;
  const files = (list: { name?: string | undefined; key: string }[] | undefined) =>
    list?.map((f) => f.name ?? f.key).join(', ');
  const errors = Object.entries(props.serverErrors);
  return (
    <Stack data-testid="wizard-review">
      <Text>{t('wizard.review.intro')}</Text>
      {errors.length > 0 && (
        <Alert color="red" title={t('wizard.review.errors')} data-testid="wizard-submit-errors">
          <List size="sm">
            {errors.map(([field, message]) => (
              <List.Item key={field}>
                {field}: {message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Part title={t('wizard.steps.sender')} testId="review-sender">
          <Lines
            lines={[
              [t('wizard.sender.organization'), organization?.name ?? data.sender?.organization],
              [t('wizard.review.onBehalfOf'), onBehalfOf?.name],
              [t('wizard.sender.referenceNumber'), data.sender?.referenceNumber],
            ]}
          />
        </Part>
        <Part title={t('wizard.steps.applicant')} testId="review-applicant">
          <Lines
            lines={[
              [t('wizard.applicant.name'), a.name],
              [t('wizard.applicant.dateOfBirth'), a.dateOfBirth && formatDate(a.dateOfBirth)],
              [t('wizard.applicant.phone'), a.phone],
              [t('wizard.applicant.email'), a.email],
              [t('wizard.applicant.address'), a.address],
              [t('wizard.applicant.country'), a.country && countryName(a.country)],
              [t('wizard.applicant.reference1'), reference(a.reference1, a.reference1Type)],
              [t('wizard.applicant.reference2'), reference(a.reference2, a.reference2Type)],
              [t('wizard.applicant.authority'), a.authority?.name ?? a.authority?.key],
              [t('wizard.applicant.application'), a.application?.name ?? a.application?.key],
              [t('wizard.applicant.notes'), a.notes],
            ]}
          />
        </Part>
        <Part title={t('wizard.steps.recipient')} testId="review-recipient">
          <Lines
            lines={[
              [t('wizard.recipient.name'), r.name],
              [t('wizard.recipient.phone'), r.phone],
              [t('wizard.recipient.fax'), r.fax],
              [t('wizard.recipient.email'), r.email],
              [t('wizard.recipient.webSiteUrl'), r.webSiteUrl],
              [t('wizard.recipient.streetAddress'), r.streetAddress],
              [t('wizard.recipient.postalAddress'), r.postalAddress],
              [t('wizard.recipient.country'), r.country && countryName(r.country)],
              [t('wizard.recipient.contact'), r.contact?.name],
              [t('wizard.recipient.notes'), r.notes],
            ]}
          />
          <Text size="sm" c="dimmed">
            {r.recipientId
              ? t('wizard.recipient.fromDirectory', { version: r.version })
              : t('wizard.recipient.isNew')}
          </Text>
        </Part>
      </SimpleGrid>
      <Part title={t('wizard.steps.content')} testId="review-content">
        <ContentAnswers
          content={c}
          itemTypes={senderData?.requestItemCategories.flatMap((it) => it.itemTypes) ?? []}
          testId="review-answers"
        />
        <Stack gap={2} mt="xs">
          <Lines
            lines={[
              [t('wizard.content.additionalInstructions'), c.additionalInstructions],
              [t('wizard.content.additionalInstructionsToHandler'), c.additionalInstructionsToHandler],
              [t('wizard.content.additionalFiles'), files(c.additionalFiles)],
            ]}
          />
        </Stack>
      </Part>
    </Stack>
  );
}
