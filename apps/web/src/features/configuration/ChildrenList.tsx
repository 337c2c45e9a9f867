import { MAX_CHILDREN_SHOWN } from '@dossier/core';
import { Badge, Group, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ChildSummary, entryPath } from './types';

/** The children of an entry: at most 50 shown; over 50 a filter on id, name or scope path. */
export function ChildrenList({ configurationId, items }: { configurationId: string; items: ChildSummary[] }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const matching = needle
    ? items.filter((c) => [c.id, c.name, c.scopePath ?? ''].some((v) => v.toLowerCase().includes(needle)))
    : items;
  const shown = matching.slice(0, MAX_CHILDREN_SHOWN);
  return (
    <div data-testid="children">
      {items.length > MAX_CHILDREN_SHOWN && (
        <Group mb="xs" align="flex-end">
          <TextInput
            label={t('configuration.children.filter')}
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            data-testid="children-filter"
          />
          <Text size="sm" c="dimmed" data-testid="children-count">
            {t('configuration.children.showing', { shown: shown.length, total: items.length })}
          </Text>
        </Group>
      )}
      {items.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('configuration.children.none')}
        </Text>
      ) : (
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('configuration.fields.id')}</Table.Th>
              <Table.Th>{t('configuration.fields.name')}</Table.Th>
              <Table.Th>{t('configuration.fields.type')}</Table.Th>
              <Table.Th>{t('configuration.fields.scopePath')}</Table.Th>
              <Table.Th>{t('configuration.fields.order')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((c) => (
              <Table.Tr key={c.id} data-testid={`child-${c.id}`}>
                <Table.Td>
                  <Link to={entryPath(configurationId, c.id)}>{c.id}</Link>
                </Table.Td>
                <Table.Td>{c.name}</Table.Td>
                <Table.Td>{t(`configuration.types.${c.type}`)}</Table.Td>
                <Table.Td>{c.scopePath && <code>{c.scopePath}</code>}</Table.Td>
                <Table.Td>{c.order}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {c.isDefault && <Badge size="xs">{t('configuration.fields.isDefault')}</Badge>}
                    {c.isDisabled && (
                      <Badge size="xs" color="gray">
                        {t('configuration.fields.isDisabled')}
                      </Badge>
                    )}
                    {c.isInherited && (
                      <Badge size="xs" variant="outline">
                        {t('configuration.fields.isInherited')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </div>
  );
}
