import {
  MAX_DECIMAL_PRECISION,
  MAX_TABLE_COLUMNS,
  TABLE_COLUMN_TYPES,
  type TableColumn,
} from '@dossier/core';
import { ActionIcon, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CommittedTextInput, IdentifierInput, IntegerInput } from '../../../ui/inputs';
import { nextId, replaceAt } from './common';

// The columns of a table question: at most 4.
export function ColumnList(props: {
  columns: TableColumn[];
  onChange(c: TableColumn[]): void;
  path: string;
  errors: Record<string, string>;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const { columns, path, errors, disabled } = props;
  const set = (i: number, change: Partial<TableColumn>) => {
    const column = columns[i];
    if (column) props.onChange(replaceAt(columns, i, { ...column, ...change }));
  };
  return (
    <Stack gap={4} mt="xs" data-testid={`columns-${path}`}>
      <Text size="sm" fw={500}>
        {t('configuration.smartForm.tableColumns', { max: MAX_TABLE_COLUMNS })}
      </Text>
      {errors[path] && (
        <Text c="red" size="xs">
          {errors[path]}
        </Text>
      )}
      {columns.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional; their inputs follow their value
        <Group key={i} align="flex-start" gap="xs">
          <IdentifierInput
            label={t('configuration.fields.id')}
            value={c.id}
            onCommit={(id) => set(i, { id })}
            error={errors[`${path}.${i}.id`]}
            disabled={disabled}
            w={120}
          />
          <CommittedTextInput
            label={t('configuration.fields.name')}
            value={c.name}
            onCommit={(name) => set(i, { name })}
            error={errors[`${path}.${i}.name`]}
            disabled={disabled}
            data-testid={`column-name-${path}.${i}`}
          />
          <CommittedTextInput
            label={t('configuration.fields.foreignId')}
            value={c.foreignId ?? ''}
            onCommit={(foreignId) => set(i, { foreignId })}
            disabled={disabled}
            w={120}
          />
          <Select
            label={t('configuration.smartForm.answerType')}
            value={c.answerType}
            data={TABLE_COLUMN_TYPES.map((a) => ({ value: a, label: t(`configuration.answerTypes.${a}`) }))}
            onChange={(v) => v && set(i, { answerType: v as TableColumn['answerType'] })}
            disabled={disabled}
            w={170}
          />
          {c.answerType === 'decimalNumber' && (
            <IntegerInput
              label={t('configuration.smartForm.decimalPrecision')}
              min={0}
              max={MAX_DECIMAL_PRECISION}
              value={c.decimalPrecision ?? 2}
              onCommit={(v) => set(i, { decimalPrecision: v ?? 2 })}
              error={errors[`${path}.${i}.decimalPrecision`]}
              disabled={disabled}
              w={110}
            />
          )}
          <ActionIcon
            mt={28}
            variant="subtle"
            color="red"
            onClick={() => props.onChange(columns.filter((_, j) => j !== i))}
            disabled={disabled}
            aria-label={t('configuration.remove')}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {!disabled && (
        <Button
          size="xs"
          variant="default"
          w="fit-content"
          disabled={columns.length >= MAX_TABLE_COLUMNS}
          onClick={() =>
            props.onChange([...columns, { id: nextId('c', columns), name: '', answerType: 'freeText' }])
          }
          data-testid={`add-column-${path}`}
        >
          {t('configuration.smartForm.addColumn')}
        </Button>
      )}
    </Stack>
  );
}
