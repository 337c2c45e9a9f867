import { ActionIcon, Badge, Group } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../view/createStore';
import { useServices } from '../ServicesContext';
import { NotificationsDrawer } from './NotificationsDrawer';
import { activeCountLabel } from './notificationsStore';

export function NotificationBell() {
  const { t } = useTranslation();
  const { notifications } = useServices();
  const active = useStore(notifications, (s) => s.active);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Group gap={4} wrap="nowrap">
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={t('notifications.open')}
          onClick={() => {
            setOpen(true);
            void notifications.load();
          }}
          data-testid="notification-bell"
        >
          <IconBell size={20} />
        </ActionIcon>
        <Badge
          size="sm"
          variant={active.count > 0 ? 'filled' : 'light'}
          color={active.count > 0 ? 'red' : 'gray'}
          data-testid="notification-count"
          // A narrow header must not squeeze the count out of its badge.
          style={{ flexShrink: 0, overflow: 'visible' }}
        >
          {activeCountLabel(active)}
        </Badge>
      </Group>
      <NotificationsDrawer opened={open} onClose={() => setOpen(false)} />
    </>
  );
}
