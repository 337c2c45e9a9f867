import type { PresenceViewer } from '@dossier/core';
import { Avatar, Group, Text, Tooltip } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';
import { useStore } from '../../view/createStore';
import { announceViewing, onPresence } from './presenceChannel';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');

/** Who else has this request open right now (issue 6, item 11); nothing while nobody else does. */
export function RequestPresence({ requestNumber }: { requestNumber: string }) {
  const { t } = useTranslation();
  const services = useServices();
  const me = useStore(services.session, (s) => s.user?.id);
  const [viewers, setViewers] = useState<PresenceViewer[]>([]);

  useEffect(() => {
    setViewers([]);
    const stop = onPresence((m) => {
      if (m.requestNumber === requestNumber) setViewers(m.viewers);
    });
    const leave = announceViewing(requestNumber);
    return () => {
      stop();
      leave();
    };
  }, [requestNumber]);

  const others = viewers.filter((v) => v.userId !== me);
  if (others.length === 0) return null;
  return (
    <Group gap={6} data-testid="request-presence">
      <Text size="xs" c="dimmed">
        {t('skills.presence.alsoViewing')}
      </Text>
      <Avatar.Group spacing="xs">
        {others.map((v) => (
          <Tooltip key={v.userId} label={v.name} withArrow>
            <Avatar size="sm" radius="xl" color="teal" aria-label={v.name} data-testid="request-viewer">
              {initials(v.name)}
            </Avatar>
          </Tooltip>
        ))}
      </Avatar.Group>
    </Group>
  );
}
