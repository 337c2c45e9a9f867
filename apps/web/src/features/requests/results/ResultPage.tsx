import { pathOfRoute, type RequestResultView, resultActionRoute } from '@dossier/core';
import { Anchor, Button, Checkbox, Container, Group, Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../api';
import { useServices } from '../../../shell/ServicesContext';
import { formatDateTime } from '../../../ui/dates';
import { Field } from '../../../ui/Field';
import { StatusBadge } from '../../../ui/StatusBadge';
import { useStore } from '../../../view/createStore';
import { definePage } from '../../../view/page';
import { ConfirmDiscard } from './ConfirmDiscard';
import { RESULT_STATUS_COLORS, resultStatus } from './resultStatus';

export { formatDateTime };

/** /requests/{n}/results/{resultId}: the result, its QA section and the actions qualityAssure, discard. */
export const ResultPage = definePage<RequestResultView>(({ view }) => {
  const { t } = useTranslation();
  const { view: store } = useServices();
  const committing = useStore(store, (s) => s.committing);
  const [panel, setPanel] = useState<'qualityAssure' | 'discard' | null>(null);
  const [itemTypes, setItemTypes] = useState<string[]>([]);
  const [itemTypesError, setItemTypesError] = useState<string>();
  const r = view.result;
  const status = resultStatus(r);

  async function run(action: string, body: unknown) {
    setItemTypesError(undefined);
    const path = pathOfRoute(resultActionRoute.path, {
      requestNumber: view.requestNumber,
      resultId: r.resultId,
      action,
    });
    const answer = await store.commit(path, body);
    if (answer.ok) setPanel(null);
    else if (answer.error instanceof ApiError) setItemTypesError(answer.error.fields?.itemTypes);
  }

  const needsItemTypes = view.requestItemTypes.length > 0;
  return (
    <Container size="lg" data-testid="result-page">
      <Stack>
        <Group justify="space-between">
          <Title order={2} data-testid="page-title">
            {view.title}
          </Title>
          <StatusBadge
            label={t(`results.status.${status}`)}
            color={RESULT_STATUS_COLORS[status]}
            testId="result-status"
          />
        </Group>
        <Anchor
          component={Link}
          to={`/requests/${view.requestNumber}`}
          size="sm"
          data-testid="back-to-request"
        >
          {t('results.backToRequest', { requestNumber: view.requestNumber })}
        </Anchor>
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Field label={t('results.file')}>
              <Group gap="xs">
                <Anchor
                  href={`/files/${r.file.key}`}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="result-file"
                >
                  {r.file.name ?? r.file.key}
                </Anchor>
                <Anchor href={`/files/${r.file.key}?attachment=1`} size="xs" data-testid="result-download">
                  ({t('results.download')})
                </Anchor>
              </Group>
            </Field>
            <Field label={t('results.applicant')}>{view.applicantName}</Field>
            <Field label={t('results.createdAt')}>
              {formatDateTime(r.createdAt)}
              {r.createdByDisplayName ? ` · ${r.createdByDisplayName}` : ''}
            </Field>
            {view.tagDefinitions.map((tag) => (
              <Field key={tag.id} label={tag.name} testId={`result-tag-${tag.id}`}>
                {r.tags[tag.id] ?? '—'}
              </Field>
            ))}
            <Field label={t('results.itemTypes')}>
              {view.requestItemTypes.map((i) => i.name).join(', ') || '—'}
            </Field>
          </SimpleGrid>
        </Paper>
        {!r.qualityAssuranceSkipped && r.qualityAssuredAt && (
          <Paper withBorder p="md" data-testid="qa-section">
            <Title order={4} mb="sm">
              {t('results.qa.title')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Field label={t('results.qa.at')}>{formatDateTime(r.qualityAssuredAt)}</Field>
              <Field label={t('results.qa.by')}>{r.qualityAssuredByDisplayName ?? r.qualityAssuredBy}</Field>
              <Field label={t('results.qa.itemTypes')}>
                {r.itemTypes.map((i) => i.name).join(', ') || '—'}
              </Field>
            </SimpleGrid>
          </Paper>
        )}
        {panel === 'qualityAssure' && (
          <Paper withBorder p="md" data-testid="panel-qualityAssure">
            <Stack>
              <Title order={4}>{t('results.actions.qualityAssure')}</Title>
              {needsItemTypes && (
                <Checkbox.Group
                  label={t('results.qa.chooseItemTypes')}
                  value={itemTypes}
                  onChange={setItemTypes}
                  error={itemTypesError}
                  withAsterisk
                >
                  <Stack gap="xs" mt="xs">
                    {view.requestItemTypes.map((i) => (
                      <Checkbox key={i.id} value={i.id} label={i.name} data-testid={`qa-itemType-${i.id}`} />
                    ))}
                  </Stack>
                </Checkbox.Group>
              )}
              <Group justify="flex-end">
                <Button
                  variant="default"
                  onClick={() => setPanel(null)}
                  disabled={committing}
                  data-testid="panel-cancel"
                >
                  {t('results.actions.cancel')}
                </Button>
                <Button
                  onClick={() => void run('qualityAssure', { itemTypes })}
                  disabled={needsItemTypes && itemTypes.length === 0}
                  loading={committing}
                  data-testid="qa-confirm"
                >
                  {t('results.actions.confirm')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}
        {panel === null && view.actions.length > 0 && (
          <Group>
            {view.actions.map((action) => (
              <Button
                key={action}
                variant={action === 'discard' ? 'light' : 'filled'}
                {...(action === 'discard' && { color: 'red' })}
                onClick={() => setPanel(action as 'qualityAssure' | 'discard')}
                data-testid={`action-${action}`}
              >
                {t(`results.actions.${action}`)}
              </Button>
            ))}
          </Group>
        )}
        <ConfirmDiscard
          opened={panel === 'discard'}
          busy={committing}
          onCancel={() => setPanel(null)}
          onConfirm={() => void run('discard', {})}
        />
      </Stack>
    </Container>
  );
});
