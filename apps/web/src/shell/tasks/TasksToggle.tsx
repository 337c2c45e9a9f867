import { Badge, Box, Button } from '@mantine/core';
import { IconChecklist } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../view/createStore';
import { useServices } from '../ServicesContext';

export function TasksToggle() {
  const { t } = useTranslation();
  const { tasks } = useServices();
  const count = useStore(tasks, (s) => s.tasks.length);
  const visible = useStore(tasks, (s) => s.visible);
  return (
    <Button
      variant={visible ? 'light' : 'subtle'}
      size="compact-sm"
      leftSection={<IconChecklist size={18} />}
      rightSection={
        <Badge size="sm" variant="filled" color={count > 0 ? 'blue' : 'gray'} data-testid="tasks-count">
          {count}
        </Badge>
      }
      aria-pressed={visible}
      aria-label={t(visible ? 'tasks.hide' : 'tasks.show')}
      onClick={() => tasks.toggle()}
      data-testid="tasks-toggle"
    >
      <Box component="span" visibleFrom="sm">
        {t('tasks.title')}
      </Box>
    </Button>
  );
}
