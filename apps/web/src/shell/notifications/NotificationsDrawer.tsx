import { type Notification, requestNumberOfTarget } from '@dossier/core';
import { Anchor, Button, Drawer, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../ui/dates';
import { useStore } from '../../view/createStore';
import { useServices } from '../ServicesContext';

// In the organisation's zone, as every time in the app (ui/dates.ts).
function formatDate(value: string, _locale: string): string {
  return formatDateTime(value);
}

function NotificationItem({ notification, onFollow }: { notification: Notification; onFollow(): void }) {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const requestNumber = requestNumberOfTarget(notification.target);
  const unread = !notification.acknowledgedAt;
  const acknowledge = () => notifications.acknowledge([notification.notificationId]);
  return (
    <Paper
      withBorder
      p="sm"
      {...(unread && { bg: 'var(--mantine-color-blue-light)' })}
      data-testid="notification-item"
      data-notification-id={notification.notificationId}
      data-unread={unread ? 'true' : 'false'}
    >
      <Stack gap={4}>
        <Text size="sm">{notification.text}</Text>
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {formatDate(notification.createdAt, i18n.language)}
            {notification.createdByDisplayName ? ` · ${notification.createdByDisplayName}` : ''}
          </Text>
          {requestNumber && (
            <Anchor
              component={Link}
              to={`/requests/${requestNumber}`}
              size="sm"
              onClick={() => {
                if (unread) void acknowledge();
                onFollow();
              }}
              data-testid="notification-request-link"
            >
              {requestNumber}
            </Anchor>
          )}
        </Group>
        {unread && (
          <Group justify="flex-end">
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={acknowledge}
              data-testid="notification-mark-read"
            >
              {t('notifications.markAsRead')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

export function NotificationsDrawer({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { notifications } = useServices();
  const list = useStore(notifications, (s) => s.list);
  const anyUnread = list.some((n) => !n.acknowledgedAt);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title={t('notifications.title')}
      // The close button is only an icon: its name is for screen readers (axe's button-name).
      closeButtonProps={{ 'aria-label': t('notifications.close') }}
      data-testid="notifications-overlay"
    >
      <Stack gap="sm">
        <Group justify="flex-end">
          <Button
            size="xs"
            variant="light"
            disabled={!anyUnread}
            onClick={() => notifications.acknowledge('all')}
            data-testid="notification-mark-all-read"
          >
            {t('notifications.markAllAsRead')}
          </Button>
        </Group>
        {list.length === 0 && (
          <Text c="dimmed" size="sm" data-testid="notifications-empty">
            {t('notifications.empty')}
          </Text>
        )}
        {list.map((notification) => (
          <NotificationItem
            key={notification.notificationId}
            notification={notification}
            onFollow={onClose}
          />
        ))}
      </Stack>
    </Drawer>
  );
}
