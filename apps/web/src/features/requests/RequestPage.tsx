import type { RequestPart, RequestView, View } from '@dossier/core';
import { Alert, Badge, Button, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type ComponentType, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';
import { ChangedNotice } from '../../ui/ChangedNotice';
import { TaskList } from '../../ui/TaskList';
import { definePage } from '../../view/page';
import { RequestPresence } from '../presence';
import { actionPanels } from './actions/panels';
import { History } from './History';
import { HistoryTabs } from './HistoryTabs';
import { requestLists } from './lists';
import { useFollowRequest } from './live/useFollowRequest';
import { Previews } from './Previews';
import { ApplicantPart } from './parts/ApplicantPart';
import { ContentPart } from './parts/ContentPart';
import { KpiPart } from './parts/KpiPart';
import { RecipientPart } from './parts/RecipientPart';
import { SenderPart } from './parts/SenderPart';
import { SummaryPart } from './parts/SummaryPart';
import type { PartProps } from './parts/types';
import { RECIPIENT_ACCESS_ACTIONS, RecipientAccessList } from './RecipientAccessList';
import { RetentionBadges } from './RetentionBadges';
import { formatDateTime } from './requestApi';
import { tasksOutsideRecipient } from './taskLists';

// /requests/{requestNumber}: the request page. One thing is active at a time: an action
// panel or the edit of one part; while it is, no other Edit or action button is offered.

const ACTION_ORDER = [
  'issueRequest',
  'addTask',
  'addResult',
  'addInvoice',
  'addNote',
  'closeRequest',
  'reOpenRequest',
  'placeLegalHold',
  'removeLegalHold',
];
const PARTS: [RequestPart, ComponentType<PartProps>][] = [
  ['summary', SummaryPart],
  ['kpi', KpiPart],
  ['sender', SenderPart],
  ['applicant', ApplicantPart],
  ['recipient', RecipientPart],
  ['content', ContentPart],
];
const STATUS_COLORS = { submitted: 'blue', open: 'teal', closed: 'gray' } as const;

type Mode = { action: string } | { part: RequestPart } | null;

const ordered = (actions: string[]) =>
  [...actions].sort((a, b) => {
    const ia = ACTION_ORDER.indexOf(a);
    const ib = ACTION_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });

// The page is keyed by the request: going from request A to request B (a link, Back) starts B with
// nothing open, instead of keeping A's action panel or part edit.
export const RequestPage = definePage<RequestView & View>(({ view }) => (
  <RequestPageOf key={view.request.requestNumber} view={view} />
));

function RequestPageOf({ view }: { view: RequestView & View }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>(null);
  const r = view.request;
  const otherTasks = tasksOutsideRecipient(view);
  const busy = mode !== null;
  const activeAction = mode && 'action' in mode ? mode.action : undefined;
  const Panel = activeAction ? actionPanels[activeAction] : undefined;
  const ResultsList = requestLists.results;
  const InvoicesList = requestLists.invoices;
  const CorrespondenceList = requestLists.correspondence;
  const { view: store } = useServices();
  // An entry of a list (a note) being edited: not a mode, as the page's buttons stay usable.
  const [listEditing, setListEditing] = useState(false);
  // Changes by others and the workflow come in live, to every part of the page at once; an open
  // action panel or part edit keeps what is typed in it (its own state) and a save made on an older
  // version is refused. Only an inline edit of a list entry (a note) holds the page back.
  const { changedElsewhere, showChanges } = useFollowRequest(r.requestNumber, listEditing);
  const withdrawn = activeAction !== undefined && !view.actions.includes(activeAction);
  // An action answers the request as it now is (the view store puts it in): the panel just closes.
  // A list change (a note edited, a task moved) answers no request view: the page fetches it.
  const reload = () => {
    setMode(null);
    void store.reload();
  };

  return (
    <Container size="xl" data-testid="request-page">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <div>
            <Group gap="sm">
              <Title order={2} data-testid="page-title">
                {t('request.title', { requestNumber: r.requestNumber })}
              </Title>
              <Badge size="lg" color={STATUS_COLORS[r.status]} data-testid="request-status">
                {t(`request.status.${r.status}`)}
              </Badge>
              <RetentionBadges view={view} />
            </Group>
            <Text c="dimmed" size="sm" mt={4}>
              {r.applicant.name} · {r.sender.organizationName ?? r.sender.organization} → {r.recipient.name} ·{' '}
              {formatDateTime(r.submittedAt)}
            </Text>
            <RequestPresence requestNumber={r.requestNumber} />
          </div>
          <Group gap="xs" data-testid="request-actions">
            {ordered(view.actions.filter((a) => !RECIPIENT_ACCESS_ACTIONS.includes(a))).map((action) => (
              <Button
                key={action}
                variant={activeAction === action ? 'filled' : 'light'}
                {...(action === 'closeRequest' && { color: 'red' })}
                disabled={busy && activeAction !== action}
                onClick={() => setMode({ action })}
                data-testid={`action-${action}`}
              >
                {t(`request.actions.${action}`, { defaultValue: action })}
              </Button>
            ))}
          </Group>
        </Group>

        {changedElsewhere && <ChangedNotice text={t('request.changedElsewhere')} onShow={showChanges} />}

        {withdrawn && (
          <Alert color="yellow" variant="light" data-testid="action-withdrawn">
            {t('request.actionWithdrawn')}
          </Alert>
        )}
        {activeAction &&
          (Panel ? (
            <Panel view={view} onDone={() => setMode(null)} onCancel={() => setMode(null)} />
          ) : (
            <Alert color="gray" withCloseButton onClose={() => setMode(null)}>
              {t('request.actions.noPanel')}
            </Alert>
          ))}

        <Previews view={view} />

        <SimpleGrid cols={{ base: 1, md: 2, lg: 3 }} spacing="md">
          {PARTS.map(([part, Part]) => (
            <Part
              key={part}
              view={view}
              canEdit={!busy && view.editableParts.includes(part)}
              editing={mode !== null && 'part' in mode && mode.part === part}
              onEdit={() => setMode({ part })}
              onClose={() => setMode(null)}
            />
          ))}
        </SimpleGrid>

        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {/* An empty Tasks list says nothing true above a Tasks (Recipient) list that has tasks. */}
          {(otherTasks.length > 0 || view.recipientTasks.length === 0) && (
            <TaskList
              title={t('request.tasks.title')}
              tasks={otherTasks}
              testId="request-tasks"
              onRequestPage
            />
          )}
          <TaskList
            title={t('request.tasks.recipientTitle')}
            tasks={view.recipientTasks}
            testId="request-recipient-tasks"
            onRequestPage
          />
        </SimpleGrid>

        {ResultsList && <ResultsList view={view} busy={busy} onChanged={reload} />}
        {InvoicesList && view.canViewInvoices && <InvoicesList view={view} busy={busy} onChanged={reload} />}
        <RecipientAccessList view={view} busy={busy} />
        {CorrespondenceList && (
          <CorrespondenceList view={view} busy={busy} onChanged={reload} onEditing={setListEditing} />
        )}

        {view.canViewAccess ? (
          <HistoryTabs requestNumber={r.requestNumber} entries={view.history} />
        ) : (
          <History requestNumber={r.requestNumber} entries={view.history} />
        )}
      </Stack>
    </Container>
  );
}
