import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';

// A tag shown as a chip (request tags, item types). Mantine's Badge cuts its label to one line with
// an ellipsis; a tag's value is what the user needs to read (issue 20), so the chip grows and
// wraps instead, and keeps the letters as typed.

export function TagChip({
  children,
  ...props
}: BadgeProps & { children: ReactNode; 'data-testid'?: string }) {
  return (
    <Badge
      h="auto"
      py={2}
      maw="100%"
      {...props}
      style={{ textTransform: 'none' }}
      styles={{
        label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', overflowWrap: 'anywhere' },
      }}
    >
      {children}
    </Badge>
  );
}
