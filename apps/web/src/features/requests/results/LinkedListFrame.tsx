import { Button, Paper, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

const SHOWN = 5;

/** A linked list of the request page: its title and count, the first five items, show more/less. */
export function LinkedListFrame<T>(props: {
  title: string;
  empty: string;
  items: T[];
  testId: string;
  render(items: T[]): ReactNode;
}) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  return (
    <Paper withBorder radius="md" p="md" data-testid={props.testId}>
      <Title order={4} mb="sm">
        {props.title}{' '}
        <Text span c="dimmed" size="sm">
          ({props.items.length})
        </Text>
      </Title>
      {props.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {props.empty}
        </Text>
      ) : (
        props.render(all ? props.items : props.items.slice(0, SHOWN))
      )}
      {props.items.length > SHOWN && (
        <Button
          variant="subtle"
          size="xs"
          mt="xs"
          onClick={() => setAll(!all)}
          data-testid={`${props.testId}-toggle`}
        >
          {all ? t('request.showLess') : t('request.showMore')}
        </Button>
      )}
    </Paper>
  );
}
