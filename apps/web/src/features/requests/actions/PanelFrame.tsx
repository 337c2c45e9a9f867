import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { type ReactNode, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useFocusReturn } from '../../../ui/useFocusReturn';

/** The frame of an action panel: its title, the form, and Cancel beside the commit button. */
export function PanelFrame(props: {
  action: string;
  title: string;
  submitLabel: string;
  busy: boolean;
  canSubmit?: boolean;
  onSubmit(): void;
  onCancel(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  // Keyboard users land in the panel they opened and back on its button when it closes.
  useFocusReturn(ref);
  return (
    <Paper
      ref={ref}
      tabIndex={-1}
      role="region"
      aria-labelledby={titleId}
      withBorder
      radius="md"
      p="md"
      shadow="sm"
      data-testid={`panel-${props.action}`}
      style={{ borderLeft: '4px solid var(--mantine-color-blue-6)' }}
    >
      <Title order={4} mb="sm" id={titleId}>
        {props.title}
      </Title>
      <Stack gap="sm">{props.children}</Stack>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={props.onCancel} disabled={props.busy} data-testid="panel-cancel">
          {t('request.cancel')}
        </Button>
        <Button
          onClick={props.onSubmit}
          loading={props.busy}
          disabled={props.canSubmit === false}
          data-testid="panel-submit"
        >
          {props.submitLabel}
        </Button>
      </Group>
    </Paper>
  );
}
