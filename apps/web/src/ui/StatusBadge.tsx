import { Badge } from '@mantine/core';

/** A coloured status badge; the text is already translated. */
export function StatusBadge(props: { label: string; color: string; testId?: string | undefined }) {
  return (
    <Badge color={props.color} variant="light" data-testid={props.testId ?? 'status-badge'}>
      {props.label}
    </Badge>
  );
}
