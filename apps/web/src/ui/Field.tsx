import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function Field({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string | undefined;
}) {
  return (
    <Stack gap={0} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}
