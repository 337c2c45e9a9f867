import { Container, Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A small centred page with a title and one panel: sign-in and password pages. */
export function NarrowPage(props: {
  title: string | undefined;
  testId?: string | undefined;
  children: ReactNode;
}) {
  return (
    <Container size={420} py="xl" data-testid={props.testId}>
      <Title order={2} ta="center" mb="lg">
        {props.title}
      </Title>
      <Paper withBorder p="lg" radius="md">
        {props.children}
      </Paper>
    </Container>
  );
}
