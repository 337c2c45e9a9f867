import { type AssignedTask, BUSINESS_TIME_ZONE, hasNoDueDate, taskTarget } from '@dossier/core';
import { Anchor, Badge, CloseButton, Group, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFocusReturn } from '../../ui/useFocusReturn';
import { useStore } from '../../view/createStore';
import { useServices } from '../ServicesContext';
import { TaskHandover } from './TaskHandover';

/** The due date as shown (its day in the organisation's zone): the no-due-date day is an infinite mark. */
export function formatDueDate(dueAt: string | null, locale: string): string {
  if (dueAt === null) return '';
  if (hasNoDueDate(dueAt)) return '∞';
  const date = new Date(dueAt);
  return Number.isNaN(date.getTime())
    ? dueAt
    : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: BUSINESS_TIME_ZONE }).format(date);
}

function TaskItem({ task }: { task: AssignedTask }) {
  const { t, i18n } = useTranslation();
  const { tasks } = useServices();
  const target = taskTarget(task);
  const label = t(`taskTypes.${task.type}`);
  return (
    <Paper withBorder p="xs" data-testid="task-item" data-task-id={task.taskId}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="xs" fw={700} data-testid="task-type">
          {label}
        </Text>
        <Group gap={4} wrap="nowrap">
          {task.isOverdue && (
            <Badge size="xs" color="red" data-testid="task-overdue">
              {t('tasks.overdue')}
            </Badge>
          )}
          <Text size="xs" c={task.isOverdue ? 'red' : 'dimmed'} data-testid="task-due">
            {formatDueDate(task.dueAt, i18n.language)}
          </Text>
        </Group>
      </Group>
      {target ? (
        <Anchor
          component={Link}
          to={target}
          size="sm"
          onClick={() => tasks.toggle(false)}
          data-testid="task-link"
        >
          {task.subject || target}
        </Anchor>
      ) : (
        <Text size="sm">{task.subject}</Text>
      )}
      {/* Every task here is the user's own: it may be handed on or back, never claimed. Whether the
          user may assign it is the server's to say, and a refusal is shown in place. */}
      <TaskHandover
        taskId={task.taskId}
        offers={{ claim: false, assign: true, release: true }}
        onChanged={() => tasks.load()}
      />
    </Paper>
  );
}

/** The assigned-tasks overlay: a panel with the count in its header and a hide control. */
export function TasksOverlay() {
  const { tasks } = useServices();
  const list = useStore(tasks, (s) => s.tasks);
  const visible = useStore(tasks, (s) => s.visible);
  if (!visible) return null;
  return <OpenTasksOverlay list={list} />;
}

function OpenTasksOverlay({ list }: { list: AssignedTask[] }) {
  const { t } = useTranslation();
  const { tasks } = useServices();
  const ref = useRef<HTMLDivElement>(null);
  // Opened from the header: focus moves into the list, and Escape or Hide gives it back.
  useFocusReturn(ref);
  return (
    <Paper
      ref={ref}
      tabIndex={-1}
      role="region"
      aria-label={t('tasks.title')}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) tasks.toggle(false);
      }}
      shadow="lg"
      withBorder
      p="sm"
      pos="fixed"
      right={16}
      bottom={16}
      w={360}
      maw="calc(100vw - 32px)"
      style={{ zIndex: 150 }}
      data-testid="tasks-overlay"
    >
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Text fw={700}>{t('tasks.title')}</Text>
          <Badge data-testid="tasks-overlay-count">{list.length}</Badge>
        </Group>
        <CloseButton
          aria-label={t('tasks.hide')}
          onClick={() => tasks.toggle(false)}
          data-testid="tasks-hide"
        />
      </Group>
      <ScrollArea.Autosize mah="50vh">
        <Stack gap="xs">
          {list.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="tasks-empty">
              {t('tasks.empty')}
            </Text>
          )}
          {list.map((task) => (
            <TaskItem key={task.taskId} task={task} />
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Paper>
  );
}
