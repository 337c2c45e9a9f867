import { ActionIcon, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

/** Left/right paging of a search result, offered only where there is a page to go to. */
export function PagingArrows(props: {
  offset: number;
  shown: number;
  total: number;
  pageSize: number;
  onPage: (offset: number) => void;
  labels: { previous: string; next: string };
}) {
  return (
    <Group gap={4}>
      <ActionIcon
        variant="default"
        aria-label={props.labels.previous}
        disabled={props.offset === 0}
        onClick={() => props.onPage(Math.max(0, props.offset - props.pageSize))}
        data-testid="search-previous"
      >
        <IconChevronLeft size={16} />
      </ActionIcon>
      <ActionIcon
        variant="default"
        aria-label={props.labels.next}
        disabled={props.offset + props.shown >= props.total}
        onClick={() => props.onPage(props.offset + props.pageSize)}
        data-testid="search-next"
      >
        <IconChevronRight size={16} />
      </ActionIcon>
    </Group>
  );
}
