import type { DashboardItem } from '@dossier/core';
import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../ui/dates';

// One line of a tile. A task links to its request, or to its inbox message when it has none.

const s = (v: unknown) => (typeof v === 'string' ? v : '');

export function TileItem({ item }: { item: DashboardItem }) {
  const { t } = useTranslation();
  if (item.$type === 'task') {
    const href = item.requestNumber
      ? `/requests/${s(item.requestNumber)}`
      : `/inbox/messages/${encodeURIComponent(s(item.messageId))}`;
    const due = s(item.dueAt);
    return (
      <Group justify="space-between" wrap="nowrap" data-testid="dashboard-item">
        <div>
          <Link to={href} data-testid="dashboard-item-link">
            {item.requestNumber ? s(item.requestNumber) : t('dashboard.inboxMessage')}
          </Link>{' '}
          <Text span size="sm">
            {t(`taskTypes.${s(item.type)}`, { defaultValue: s(item.type) })}
          </Text>
          <Text size="xs" c="dimmed">
            {s(item.applicantName) || s(item.subject)}
          </Text>
        </div>
        <Group gap={4} wrap="nowrap">
          {item.isOverdue === true && (
            // Whole, never "OVERD…": the badge keeps its width beside a long date.
            <Badge color="red" variant="light" style={{ flexShrink: 0 }} data-testid="dashboard-item-overdue">
              {t('dashboard.overdue')}
            </Badge>
          )}
          <Text size="xs">
            {due.startsWith('9999-12-31') ? t('dashboard.noDueDate') : formatDateTime(due)}
          </Text>
        </Group>
      </Group>
    );
  }
  if (item.$type === 'correspondence') {
    return (
      <Group justify="space-between" wrap="nowrap" data-testid="dashboard-item">
        <div>
          <Link to={`/requests/${s(item.requestNumber)}`} data-testid="dashboard-item-link">
            {s(item.requestNumber)}
          </Link>{' '}
          <Text span size="sm">
            {t(`dashboard.kinds.${s(item.kind)}`, { defaultValue: s(item.kind) })}
          </Text>
          {item.isUrgentNote === true && (
            <Badge color="red" variant="light" ml={4}>
              {t('dashboard.urgent')}
            </Badge>
          )}
          <Text size="xs" c="dimmed">
            {s(item.subject) || s(item.applicantName)}
          </Text>
        </div>
        <Text size="xs">{formatDateTime(s(item.createdAt))}</Text>
      </Group>
    );
  }
  if (item.$type === 'result') {
    return (
      <Group justify="space-between" wrap="nowrap" data-testid="dashboard-item">
        <div>
          <Link
            to={`/requests/${s(item.requestNumber)}/results/${s(item.resultId)}`}
            data-testid="dashboard-item-link"
          >
            {s(item.requestNumber)}
          </Link>{' '}
          <Badge variant="light">{t(`dashboard.resultStates.${s(item.state)}`)}</Badge>
          <Text size="xs" c="dimmed">
            {s(item.subject)} {s(item.fileName)}
          </Text>
        </div>
        <Text size="xs">{formatDateTime(s(item.createdAt))}</Text>
      </Group>
    );
  }
  return (
    <Group justify="space-between" wrap="nowrap" data-testid="dashboard-item">
      <div>
        <Link to={`/requests/${s(item.requestNumber)}`} data-testid="dashboard-item-link">
          {s(item.requestNumber)}
        </Link>{' '}
        <Badge variant="light">{t(`dashboard.status.${s(item.status)}`)}</Badge>
        <Text size="xs" c="dimmed">
          {s(item.applicantName)} · {s(item.recipientName)}
        </Text>
      </div>
      <Text size="xs">{formatDateTime(s(item.closedAt) || s(item.submittedAt))}</Text>
    </Group>
  );
}
