import {
  assignTaskRoute,
  claimTaskRoute,
  pathOfRoute,
  releaseTaskRoute,
  type TaskAssignee,
  taskAssigneesRoute,
} from '@dossier/core';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { useServices } from '../ServicesContext';

export interface HandoverOffers {
  claim: boolean;
  assign: boolean;
  release: boolean;
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Claim, Assign… and Release of one open task (POST /tasks/{id}/claim, /assign, /release), as the
 * server offers them. Assign… opens a select of the users the task may go to (GET
 * /tasks/{id}/assignees, read when opened); the server has the last word, and its refusal (say the
 * chosen user lost the skill meanwhile) is shown on the field. Refusals of Claim and Release are
 * shown under the controls, so the same component works on the request page and in the overlay.
 * `onChanged` runs after a successful move (the overlay is pushed anyway). `send` makes the moves'
 * calls; the request page's puts the answered request view in place (TaskList.tsx).
 */
export function TaskHandover({
  taskId,
  offers,
  onChanged,
  send,
}: {
  taskId: string;
  offers: HandoverOffers;
  onChanged: () => Promise<void> | void;
  send?: (path: string, body: unknown) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const { api } = useServices();
  const moves = { claim: claimTaskRoute, release: releaseTaskRoute } as const;
  const [busy, setBusy] = useState<'claim' | 'assign' | 'release' | 'load' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [assignees, setAssignees] = useState<TaskAssignee[] | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  if (!offers.claim && !offers.assign && !offers.release) return null;

  async function move(action: 'claim' | 'release') {
    setBusy(action);
    setError(null);
    try {
      const route = moves[action];
      // On the request page a move is a commit of its view (`send`), at the route's path.
      if (send) await send(pathOfRoute(route.path, { taskId }), {});
      else await api.call(route, { params: { taskId } });
      await onChanged();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  }

  async function openPicker() {
    setBusy('load');
    setError(null);
    setFieldError(null);
    try {
      const answer = await api.call(taskAssigneesRoute, { params: { taskId } });
      setAssignees(answer.assignees);
      setUserId(null);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  }

  async function assign() {
    if (!userId) {
      setFieldError(t('workflow.task.chooseUser'));
      return;
    }
    setBusy('assign');
    setFieldError(null);
    try {
      if (send) await send(pathOfRoute(assignTaskRoute.path, { taskId }), { userId });
      else await api.call(assignTaskRoute, { params: { taskId }, body: { userId } });
      setAssignees(null);
      await onChanged();
    } catch (e) {
      setFieldError(e instanceof ApiError && e.fields?.userId ? e.fields.userId : messageOf(e));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack gap={4} mt={4} data-testid="task-handover">
      {/* In a narrow State column (the request page at 1280 px) the buttons go to a second line. */}
      <Group gap={4}>
        {offers.claim && (
          <Button
            size="compact-xs"
            variant="light"
            loading={busy === 'claim'}
            disabled={busy !== null}
            onClick={() => move('claim')}
            data-testid="task-claim"
          >
            {t('workflow.task.claim')}
          </Button>
        )}
        {offers.assign && assignees === null && (
          <Button
            size="compact-xs"
            variant="light"
            loading={busy === 'load'}
            disabled={busy !== null}
            onClick={openPicker}
            data-testid="task-assign"
          >
            {t('workflow.task.assign')}
          </Button>
        )}
        {offers.release && (
          <Button
            size="compact-xs"
            variant="light"
            color="gray"
            loading={busy === 'release'}
            disabled={busy !== null}
            onClick={() => move('release')}
            data-testid="task-release"
          >
            {t('workflow.task.release')}
          </Button>
        )}
      </Group>
      {assignees !== null && (
        // Stacked, not side by side: the task list sits in a narrow column of the request page.
        // As wide as the column allows, never wider: at 1280 px the State column is narrower than
        // the picker's natural width, and it must stay inside its card.
        <Stack gap={4} w="100%" maw={180} miw={0} style={{ whiteSpace: 'normal' }}>
          <Select
            size="xs"
            aria-label={t('workflow.task.assignTo')}
            placeholder={
              assignees.length === 0 ? t('workflow.task.nobodyToAssign') : t('workflow.task.chooseUser')
            }
            data={assignees.map((a) => ({
              value: a.userId,
              label: t('workflow.task.assigneeOption', { name: a.name, open: a.openTasks }),
              disabled: a.isAssignee,
            }))}
            value={userId}
            onChange={(value) => {
              setUserId(value);
              setFieldError(null);
            }}
            error={fieldError}
            searchable
            comboboxProps={{ withinPortal: false }}
            data-testid="task-assign-user"
          />
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-xs"
              loading={busy === 'assign'}
              disabled={busy !== null}
              onClick={assign}
              data-testid="task-assign-submit"
            >
              {t('workflow.task.assignSubmit')}
            </Button>
            <Button
              size="compact-xs"
              variant="subtle"
              color="gray"
              disabled={busy !== null}
              onClick={() => setAssignees(null)}
              data-testid="task-assign-cancel"
            >
              {t('workflow.task.cancel')}
            </Button>
          </Group>
        </Stack>
      )}
      {error && (
        <Text
          size="xs"
          c="red"
          role="alert"
          style={{ whiteSpace: 'normal' }}
          data-testid="task-handover-error"
        >
          {error}
        </Text>
      )}
    </Stack>
  );
}
