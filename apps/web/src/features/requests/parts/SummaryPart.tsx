import { ActionIcon, Button, Group, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TagChip } from '../../../ui/TagChip';
import { formatDateTime, useRequestCommit } from '../requestApi';
import { Field, PartCard } from './PartCard';
import type { PartProps } from './types';

/** The tags of the request, three per row. */
export function TagGrid({ tags }: { tags: Record<string, string> }) {
  const { t } = useTranslation();
  const entries = Object.entries(tags);
  if (entries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('request.summary.noTags')}
      </Text>
    );
  return (
    <SimpleGrid cols={3} spacing="xs" data-testid="request-tags">
      {entries.map(([id, value]) => (
        <TagChip key={id} variant="light" color="gray" size="lg" radius="sm" data-testid="request-tag">
          {id}: {value}
        </TagChip>
      ))}
    </SimpleGrid>
  );
}

export function SummaryPart({ view, canEdit, editing, onEdit, onClose }: PartProps) {
  const { t } = useTranslation();
  const r = view.request;
  const commit = useRequestCommit();
  const [rows, setRows] = useState<[string, string][]>([]);

  // The version the edit started from: changes shown live meanwhile must not make a stale save pass.
  const [baseVersion, setBaseVersion] = useState(r.version);

  function start() {
    setBaseVersion(r.version);
    setRows(Object.entries(r.tags));
    commit.clear();
    onEdit();
  }
  async function save() {
    const tags = Object.fromEntries(rows.filter(([id]) => id.trim()).map(([id, v]) => [id.trim(), v]));
    if (await commit.savePart(r.requestNumber, 'summary', baseVersion, { tags })) onClose();
  }
  const set = (i: number, at: 0 | 1, value: string) =>
    setRows((list) => list.map((row, j) => (j === i ? (at === 0 ? [value, row[1]] : [row[0], value]) : row)));

  return (
    <PartCard
      part="summary"
      title={t('request.parts.summary')}
      canEdit={canEdit}
      editing={editing}
      busy={commit.busy}
      onEdit={start}
      onSave={save}
      onCancel={onClose}
    >
      <Field label={t('request.summary.requestNumber')} value={r.requestNumber} />
      <Field
        label={t('request.summary.status')}
        value={t(`request.status.${r.status}`)}
        testId="summary-status"
      />
      <Field
        label={t('request.summary.submittedAt')}
        value={`${formatDateTime(r.submittedAt)}${r.submittedByDisplayName ? ` · ${r.submittedByDisplayName}` : ''}`}
      />
      {r.issuedAt && <Field label={t('request.summary.issuedAt')} value={formatDateTime(r.issuedAt)} />}
      {r.closedAt && <Field label={t('request.summary.closedAt')} value={formatDateTime(r.closedAt)} />}
      <Field label={t('request.summary.lastUpdatedAt')} value={formatDateTime(r.lastUpdatedAt)} />
      <Text size="sm" c="dimmed" mt="xs">
        {t('request.parts.tags')}
      </Text>
      {editing ? (
        <>
          {rows.map(([id, value], i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the id is what is typed
            <Group key={i} gap="xs" wrap="nowrap">
              <TextInput
                size="xs"
                placeholder={t('request.summary.tagId')}
                value={id}
                onChange={(e) => set(i, 0, e.currentTarget.value)}
                error={commit.fields[`tags.${id}`]}
              />
              <TextInput
                size="xs"
                placeholder={t('request.summary.tagValue')}
                value={value}
                onChange={(e) => set(i, 1, e.currentTarget.value)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('request.summary.removeTag')}
                onClick={() => setRows((list) => list.filter((_, j) => j !== i))}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Button size="compact-xs" variant="subtle" onClick={() => setRows((list) => [...list, ['', '']])}>
            {t('request.summary.addTag')}
          </Button>
        </>
      ) : (
        <TagGrid tags={r.tags} />
      )}
    </PartCard>
  );
}
