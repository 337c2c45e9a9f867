import {
  completeTaskRoute,
  hasNoDueDate,
  isCurrentAssignedTask,
  markTaskInProgressRoute,
  pathOfRoute,
  queryStringOf,
  type RequestTaskItem,
  visibleTasks,
} from '@dossier/core';
import { Badge, Button, Group, Paper, Table, Text, Title, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../shell/ServicesContext';
import { TaskHandover } from '../shell/tasks/TaskHandover';
import { useStore } from '../view/createStore';
import { formatDateTime } from './dates';

const SHOWN = 5;

/**
 * Complete and Mark In Progress of a task item (offer rules, decided by the server's
 * canNotComplete / canNotMarkInProgress). While one runs the item shows it is updating; a failure
 * stops that and goes to the view's error area; success reloads the page, or on the request page
 * puts the answered request view in place (`?answer=request`), with no second call.
 */
function TaskActions({ task, onRequestPage }: { task: RequestTaskItem; onRequestPage: boolean }) {
  const { t } = useTranslation();
  const { api, view } = useServices();
  const [busy, setBusy] = useState<'complete' | 'mark-in-progress' | null>(null);
  if (task.canNotComplete && task.canNotMarkInProgress) return null;
  async function run(action: 'complete' | 'mark-in-progress') {
    setBusy(action);
    const route = action === 'complete' ? completeTaskRoute : markTaskInProgressRoute;
    const params = { taskId: task.taskId };
    if (onRequestPage) {
      await view.commit(pathOfRoute(route.path, params) + queryStringOf({ answer: 'request' }), {});
      setBusy(null);
      return;
    }
    try {
      await api.call(route, { params });
      await view.reload();
    } catch (error) {
      view.report(error);
    } finally {
      setBusy(null);
    }
  }
  return (
    <Group gap={4} mt={4}>
      {!task.canNotMarkInProgress && (
        <Button
          size="compact-xs"
          variant="light"
          loading={busy === 'mark-in-progress'}
          disabled={busy !== null}
          onClick={() => run('mark-in-progress')}
          data-testid="task-mark-in-progress"
        >
          {t('workflow.task.markInProgress')}
        </Button>
      )}
      {!task.canNotComplete && (
        <Button
          size="compact-xs"
          variant="light"
          color="green"
          loading={busy === 'complete'}
          disabled={busy !== null}
          onClick={() => run('complete')}
          data-testid="task-complete"
        >
          {t('workflow.task.complete')}
        </Button>
      )}
    </Group>
  );
}

/**
 * A date and time that may break between the two but never inside either: kept on one line, the due
 * date pushed the State column past the panel's edge at a 1280 px wide window.
 */
function DateTimeLines({ at }: { at: Parameters<typeof formatDateTime>[0] }) {
  const text = formatDateTime(at);
  const split = text.indexOf(', ');
  if (split < 0) return <span style={{ whiteSpace: 'nowrap' }}>{text}</span>;
  return (
    <>
      <span style={{ whiteSpace: 'nowrap' }}>{text.slice(0, split + 1)}</span>{' '}
      <span style={{ whiteSpace: 'nowrap' }}>{text.slice(split + 2)}</span>
    </>
  );
}

function TaskState({ task }: { task: RequestTaskItem }) {
  const { t } = useTranslation();
  const [key, color] = task.completedAt
    ? task.wasCompletedBeforeDueDate === false
      ? ['completedLate', 'orange']
      : ['completedOnTime', 'green']
    : task.isOverdue
      ? ['overdue', 'red']
      : task.markedInProgressAt
        ? ['inProgress', 'blue']
        : ['active', 'gray'];
  // Plain coloured text: a badge would be cut short in a narrow column.
  return (
    <>
      <Text size="xs" fw={700} tt="uppercase" c={color} data-testid="task-state">
        {t(`request.tasks.${key}`)}
      </Text>
      {task.completedAt && (
        <Text size="xs" c="dimmed" data-testid="task-completed-at">
          <DateTimeLines at={task.completedAt} />
        </Text>
      )}
    </>
  );
}

/**
 * Tasks or Tasks (Recipient) of the request page (or an inbox message's), newest first, with show
 * more/less. `onRequestPage`: the task routes answer the request view, which replaces the page's.
 */
export function TaskList({
  title,
  tasks,
  testId,
  onRequestPage = false,
}: {
  title: string;
  tasks: RequestTaskItem[];
  testId: string;
  onRequestPage?: boolean;
}) {
  const { t } = useTranslation();
  const { session, view } = useServices();
  const userId = useStore(session, (s) => s.user?.id);
  const [all, setAll] = useState(false);
  const [showSystem, setShowSystem] = useState(false);
  // A refusal of a move is shown by the task's controls, so the commit leaves it to them.
  async function commitMove(path: string, body: unknown) {
    const result = await view.commit(`${path}?answer=request`, body, { quiet: true });
    if (!result.ok) throw result.error;
  }
  // Tasks the workflow completed by itself are folded away unless asked for.
  const { tasks: listed, folded } = visibleTasks(tasks, showSystem);
  const shown = all ? listed : listed.slice(0, SHOWN);
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Group justify="space-between" mb="sm">
        <Title order={4}>
          {title}{' '}
          <Text span c="dimmed" size="sm">
            ({tasks.length})
          </Text>
        </Title>
      </Group>
      {listed.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('request.tasks.empty')}
        </Text>
      ) : (
        <Table striped highlightOnHover verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('request.tasks.type')}</Table.Th>
              <Table.Th>{t('request.tasks.due')}</Table.Th>
              <Table.Th>{t('request.tasks.assignedTo')}</Table.Th>
              <Table.Th>{t('request.tasks.state')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((task) => (
              <Table.Tr
                key={task.taskId}
                data-testid="task-item"
                data-type={task.type}
                data-task-id={task.taskId}
              >
                <Table.Td>
                  <Tooltip
                    label={task.notice ?? task.subject}
                    multiline
                    w={320}
                    withArrow
                    disabled={!task.notice}
                  >
                    <div>
                      <Text size="sm" fw={500}>
                        {t(`taskTypes.${task.type}`, { defaultValue: task.type })}
                      </Text>
                      {task.notice && (
                        <Text size="xs" c="dimmed" lineClamp={1}>
                          {task.notice}
                        </Text>
                      )}
                    </div>
                  </Tooltip>
                  {isCurrentAssignedTask(task, userId) && (
                    <Badge
                      size="xs"
                      color="grape"
                      variant="light"
                      radius="sm"
                      mt={2}
                      // A narrow column wraps the label rather than cutting it to "CURR…".
                      styles={{
                        root: { height: 'auto', maxWidth: '100%' },
                        label: { whiteSpace: 'normal', overflow: 'visible' },
                      }}
                    >
                      {t('request.tasks.currentAssignedTask')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" data-testid="task-due">
                    {/* The due date, also once the task is done: when it was done is its state's. */}
                    {hasNoDueDate(task.dueAt) ? t('request.infinite') : <DateTimeLines at={task.dueAt} />}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{task.isAssignedToDisplayName ?? t('request.tasks.unassigned')}</Text>
                </Table.Td>
                <Table.Td>
                  <TaskState task={task} />
                  <TaskActions task={task} onRequestPage={onRequestPage} />
                  <TaskHandover
                    taskId={task.taskId}
                    offers={{
                      claim: !task.canNotClaim,
                      assign: !task.canNotAssign,
                      release: !task.canNotRelease,
                    }}
                    onChanged={onRequestPage ? () => {} : () => view.reload()}
                    {...(onRequestPage ? { send: commitMove } : {})}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group gap="xs" mt="xs">
        {listed.length > SHOWN && (
          <Button variant="subtle" size="xs" onClick={() => setAll(!all)} data-testid={`${testId}-toggle`}>
            {all ? t('request.showLess') : t('request.showMore')}
          </Button>
        )}
        {(folded > 0 || showSystem) && (
          <Button
            variant="subtle"
            size="xs"
            color="gray"
            onClick={() => setShowSystem(!showSystem)}
            data-testid={`${testId}-system`}
          >
            {showSystem ? t('request.tasks.hideSystem') : t('request.tasks.showSystem', { count: folded })}
          </Button>
        )}
      </Group>
    </Paper>
  );
}
