import { Badge, Box, Button, Group } from '@mantine/core';
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
    <Group gap={4} wrap="nowrap">
      <Button
        variant={visible ? 'light' : 'subtle'}
        size="compact-sm"
        leftSection={<IconChecklist size={18} />}
        aria-pressed={visible}
        aria-label={t(visible ? 'tasks.hide' : 'tasks.show')}
        onClick={() => tasks.toggle()}
        data-testid="tasks-toggle"
      >
        <Box component="span" visibleFrom="sm">
          {t('tasks.title')}
        </Box>
      </Button>
      {/* Outside the button, so a narrow header cannot squeeze the count away. */}
      <Badge
        size="sm"
        variant="filled"
        color={count > 0 ? 'blue' : 'gray'}
        data-testid="tasks-count"
        style={{ flexShrink: 0, overflow: 'visible' }}
      >
        {count}
      </Badge>
    </Group>
  );
}
