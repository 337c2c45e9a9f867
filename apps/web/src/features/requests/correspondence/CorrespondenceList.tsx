import type { CorrespondenceItem } from '@dossier/core';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestListProps } from '../lists';
import { CorrespondenceEntry } from './CorrespondenceEntry';

// The Correspondence list of the request page: every note, issued request and message,
// newest first; the first few shown, the rest behind Show more. One entry at a time is edited.

const COLLAPSED = 5;

export function CorrespondenceList({ view, busy, onChanged, onEditing }: RequestListProps) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const [editing, setEditing] = useState<string>();
  const isEditing = editing !== undefined;
  useEffect(() => onEditing?.(isEditing), [isEditing, onEditing]);
  const items: CorrespondenceItem[] = view.correspondence;
  const shown = expanded ? items : items.slice(0, COLLAPSED);
  return (
    <Paper withBorder radius="md" p="md" data-testid="correspondence">
      <Title order={4} mb="sm">
        {t('correspondence.title')}{' '}
        <Text span c="dimmed" size="sm">
          ({items.length})
        </Text>
      </Title>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="correspondence-empty">
          {t('correspondence.none')}
        </Text>
      ) : (
        <Stack gap="sm" data-testid="correspondence-list">
          {shown.map((item) => (
            <CorrespondenceEntry
              key={item.messageId}
              requestNumber={view.request.requestNumber}
              item={item}
              canEdit={item.isEditable && !busy && (editing === undefined || editing === item.messageId)}
              editing={editing === item.messageId}
              onEdit={() => setEditing(item.messageId)}
              onClose={() => setEditing(undefined)}
              onSaved={() => {
                setEditing(undefined);
                onChanged();
              }}
            />
          ))}
        </Stack>
      )}
      {items.length > COLLAPSED && (
        <Group justify="center" mt="sm">
          <Button
            variant="subtle"
            size="xs"
            onClick={() => setExpanded(!expanded)}
            data-testid="correspondence-toggle"
          >
            {expanded ? t('correspondence.showLess') : t('correspondence.showMore')}
          </Button>
        </Group>
      )}
    </Paper>
  );
}
