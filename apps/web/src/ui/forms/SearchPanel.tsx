import { type SearchAnswer, searchSummary } from '@dossier/core';
import { Button, Group, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PagingArrows } from './PagingArrows';
import { termsFromAddress, useSearch } from './useSearch';

export interface SearchColumn<T> {
  key: string;
  label: string;
  render?: (item: T) => ReactNode;
}

export interface SearchPanelProps<T> {
  /** The search call, such as /admin/users/search. */
  path: string;
  /** Text fields; a field with options is a select (its empty choice is no filter). */
  fields: {
    name: string;
    label: string;
    options?: { value: string; label: string }[];
    placeholder?: string;
  }[];
  columns: SearchColumn<T>[];
  /** The edit page of a hit. */
  editPath: (id: string) => string;
  testId: string;
  pageSize?: number;
  /** Lists the first page on opening, not only when the address asks for it (search=1). */
  searchOnOpen?: boolean | undefined;
}

/** A search form, its result list with the summary, and left/right paging arrows. */
export function SearchPanel<T>(props: SearchPanelProps<T>) {
  const { t } = useTranslation();
  const pageSize = props.pageSize ?? 20;
  const [terms, setTerms] = useState<Record<string, string>>(() =>
    termsFromAddress(props.fields.map((f) => f.name)),
  );
  const { result, searching, errors, run } = useSearch<SearchAnswer<T>, Record<string, string>>({
    path: props.path,
    pageSize,
    initialTerms: terms,
    bindAddress: true,
    searchOnOpen: props.searchOnOpen,
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run(0, terms);
  };
  const offset = result?.paging.offset ?? 0;
  return (
    <Stack data-testid={props.testId}>
      <Paper withBorder p="md" component="form" onSubmit={onSubmit}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {props.fields.map((f) =>
            f.options ? (
              <Select
                key={f.name}
                label={f.label}
                data={f.options}
                value={terms[f.name] || null}
                onChange={(value) => setTerms({ ...terms, [f.name]: value ?? '' })}
                placeholder={f.placeholder}
                clearable
                error={errors[f.name]}
                data-testid={`search-${f.name}`}
              />
            ) : (
              <TextInput
                key={f.name}
                label={f.label}
                value={terms[f.name] ?? ''}
                onChange={(e) => setTerms({ ...terms, [f.name]: e.currentTarget.value })}
                error={errors[f.name]}
                data-testid={`search-${f.name}`}
              />
            ),
          )}
        </SimpleGrid>
        <Group justify="flex-end" mt="md">
          <Button type="submit" loading={searching} disabled={searching} data-testid="search-submit">
            {t('admin.search.search')}
          </Button>
        </Group>
      </Paper>
      {result && (
        <Stack gap="xs">
          <Group justify="space-between">
            <Text size="sm" data-testid="search-summary">
              {searchSummary(result)}
            </Text>
            <PagingArrows
              offset={offset}
              shown={result.hits.length}
              total={result.total}
              pageSize={pageSize}
              onPage={(next) => void run(next, terms)}
              labels={{ previous: t('admin.search.previous'), next: t('admin.search.next') }}
            />
          </Group>
          {result.hits.length > 0 && (
            <Table striped highlightOnHover data-testid="search-results">
              <Table.Thead>
                <Table.Tr>
                  {props.columns.map((c) => (
                    <Table.Th key={c.key}>{c.label}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.hits.map((hit) => (
                  <Table.Tr key={hit.id} data-testid={`search-hit-${hit.id}`}>
                    {props.columns.map((c, i) => {
                      const value = c.render
                        ? c.render(hit.item)
                        : String((hit.item as Record<string, unknown>)[c.key] ?? '');
                      return (
                        <Table.Td key={c.key}>
                          {i === 0 ? <Link to={props.editPath(hit.id)}>{value}</Link> : value}
                        </Table.Td>
                      );
                    })}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      )}
    </Stack>
  );
}
