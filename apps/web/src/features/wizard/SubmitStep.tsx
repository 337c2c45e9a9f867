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
          <Text size="sm">{organization?.name ?? data.sender?.organization}</Text>
          {onBehalfOf && (
            <Text size="sm">
              {t('wizard.review.onBehalfOf')}: {onBehalfOf.name}
            </Text>
          )}
          {data.sender?.referenceNumber && <Text size="sm">{data.sender.referenceNumber}</Text>}
        </Part>
        <Part title={t('wizard.steps.applicant')} testId="review-applicant">
          <Text size="sm">{a.name}</Text>
          <Text size="sm">
            {formatDate(a.dateOfBirth)} · {countryName(a.country)}
          </Text>
          {a.reference1 && <Text size="sm">{a.reference1}</Text>}
          <Text size="sm">
            {t('wizard.applicant.authority')}: {a.authority?.name ?? a.authority?.key}
          </Text>
        </Part>
        <Part title={t('wizard.steps.recipient')} testId="review-recipient">
          <Text size="sm">{r.name}</Text>
          <Text size="sm">{r.phone}</Text>
          {r.email && <Text size="sm">{r.email}</Text>}
          <Text size="sm" c="dimmed">
            {r.recipientId
              ? t('wizard.recipient.fromDirectory', { version: r.version })
              : t('wizard.recipient.isNew')}
          </Text>
        </Part>
      </SimpleGrid>
      <Part title={t('wizard.steps.content')} testId="review-content">
        <ContentAnswers
          content={data.content ?? {}}
          itemTypes={senderData?.requestItemCategories.flatMap((c) => c.itemTypes) ?? []}
          testId="review-answers"
        />
        {data.content?.additionalInstructions && (
          <Text size="sm" mt="xs" style={{ whiteSpace: 'pre-line' }}>
            {t('wizard.content.additionalInstructions')}: {data.content.additionalInstructions}
          </Text>
        )}
      </Part>
    </Stack>
  );
}
