import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** One part of the request page: a titled card with an Edit button, and Save/Cancel while editing. */
export function PartCard(props: {
  part: string;
  title: string;
  canEdit: boolean;
  editing: boolean;
  busy?: boolean;
  onEdit?(): void;
  onSave?(): void;
  onCancel?(): void;
  /** Replaces the Edit button (the recipient is chosen on its own page). */
  editControl?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md" data-testid={`part-${props.part}`} h="100%">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={4}>{props.title}</Title>
        {props.canEdit &&
          !props.editing &&
          (props.editControl ?? (
            <Button
              size="compact-sm"
              variant="light"
              onClick={props.onEdit}
              data-testid={`edit-${props.part}`}
            >
              {t('request.edit')}
            </Button>
          ))}
      </Group>
      <Stack gap="xs">{props.children}</Stack>
      {props.editing && (
        <Group justify="flex-end" mt="md">
          <Button
            variant="default"
            {...(props.onCancel !== undefined && { onClick: props.onCancel })}
            {...(props.busy !== undefined && { disabled: props.busy })}
            data-testid={`cancel-${props.part}`}
          >
            {t('request.cancel')}
          </Button>
          <Button
            {...(props.onSave !== undefined && { onClick: props.onSave })}
            {...(props.busy !== undefined && { loading: props.busy })}
            data-testid={`save-${props.part}`}
          >
            {t('request.save')}
          </Button>
        </Group>
      )}
    </Paper>
  );
}

/** A label and its value, one per line in a part's read view. */
export function Field({
  label,
  value,
  testId,
}: {
  label: string;
  value: ReactNode;
  testId?: string | undefined;
}) {
  const empty = value === null || value === undefined || value === '';
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <Text size="sm" c="dimmed" w={150} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-word', whiteSpace: 'pre-line' }} data-testid={testId}>
        {empty ? '—' : value}
      </Text>
    </Group>
  );
}
