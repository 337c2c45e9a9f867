import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../ui/dates';

/**
 * A result's or invoice's file in its list: a link to it, or when retention removed it from storage,
 * when that was (a link would answer 404).
 */
export function StoredFileLink(props: {
  file: { key: string; name?: string | undefined };
  removedAt: string | null | undefined;
  fallbackName: string;
  testId: string;
}) {
  const { t } = useTranslation();
  if (props.removedAt)
    return (
      <Text size="sm" c="dimmed" data-testid={`${props.testId}-removed`}>
        {t('results.fileRemoved', { at: formatDateTime(props.removedAt) })}
      </Text>
    );
  return (
    <Anchor
      href={`/files/${props.file.key}`}
      target="_blank"
      rel="noopener noreferrer"
      size="sm"
      data-testid={props.testId}
    >
      {props.file.name ?? props.fallbackName}
    </Anchor>
  );
}
