import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { type ReactNode, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DisabledReason } from '../../../ui/forms/DisabledReason';
import { useFocusReturn } from '../../../ui/useFocusReturn';

/** The frame of an action panel: its title, the form, and Cancel beside the commit button. */
export function PanelFrame(props: {
  action: string;
  title: string;
  submitLabel: string;
  busy: boolean;
  canSubmit?: boolean;
  /** Why the submit is disabled (the first value still missing or invalid), said beside it. */
  blocked?: string | undefined;
  onSubmit(): void;
  onCancel(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const reasonId = useId();
  const disabled = props.canSubmit === false || props.blocked !== undefined;
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
        <DisabledReason id={reasonId} reason={disabled ? props.blocked : undefined} />
        <Button variant="default" onClick={props.onCancel} disabled={props.busy} data-testid="panel-cancel">
          {t('request.cancel')}
        </Button>
        <Button
          onClick={props.onSubmit}
          loading={props.busy}
          disabled={disabled}
          {...(disabled && props.blocked !== undefined && { 'aria-describedby': reasonId })}
          data-testid="panel-submit"
        >
          {props.submitLabel}
        </Button>
      </Group>
    </Paper>
  );
}
