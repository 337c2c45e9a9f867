import { type DraftSummary, discardDraftRoute, WIZARD_STEPS } from '@dossier/core';
import { Button, Group, Modal, Paper, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServices } from '../../shell/ServicesContext';
import { formatDateTime } from '../../ui/dates';

const when = formatDateTime;

/** The user's saved drafts, each to open at the step it reached or to discard. */
export function DraftsList(props: { drafts: DraftSummary[] }) {
  const { t } = useTranslation();
  const { api, view } = useServices();
  const [discarding, setDiscarding] = useState<DraftSummary>();
  const [busy, setBusy] = useState(false);

  async function discard(draft: DraftSummary) {
    setBusy(true);
    try {
      await api.call(discardDraftRoute, { params: { draftId: draft.draftId } });
      view.patch((v) => ({
        ...v,
        drafts: (v.drafts as DraftSummary[]).filter((d) => d.draftId !== draft.draftId),
      }));
      setDiscarding(undefined);
    } catch (error) {
      view.report(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md" data-testid="drafts">
      <Title order={4} mb="xs">
        {t('wizard.drafts.title')}
      </Title>
      {props.drafts.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="drafts-none">
          {t('wizard.drafts.none')}
        </Text>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('wizard.drafts.applicant')}</Table.Th>
              <Table.Th>{t('wizard.drafts.organization')}</Table.Th>
              <Table.Th>{t('wizard.drafts.step')}</Table.Th>
              <Table.Th>{t('wizard.drafts.updated')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.drafts.map((d) => {
              const step = WIZARD_STEPS[Math.min(d.completedStep, WIZARD_STEPS.length - 1)];
              return (
                <Table.Tr key={d.draftId} data-testid="draft-item">
                  <Table.Td>{d.applicantName ?? t('wizard.drafts.unnamed')}</Table.Td>
                  <Table.Td>{d.organizationName}</Table.Td>
                  <Table.Td>{t(`wizard.steps.${step}`)}</Table.Td>
                  <Table.Td>{when(d.updatedAt)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="compact-sm"
                        component={Link}
                        to={`/requests/new/${d.draftId}?step=${step}`}
                        data-testid="draft-open"
                      >
                        {t('wizard.drafts.open')}
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        onClick={() => setDiscarding(d)}
                        data-testid="draft-discard"
                      >
                        {t('wizard.drafts.discard')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <Modal
        opened={discarding !== undefined}
        onClose={() => setDiscarding(undefined)}
        title={t('wizard.discardDraft')}
      >
        <Text size="sm">{t('wizard.discardConfirm')}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setDiscarding(undefined)}>
            {t('wizard.cancel')}
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={() => discarding && void discard(discarding)}
            data-testid="draft-discard-confirm"
          >
            {t('wizard.confirm')}
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
