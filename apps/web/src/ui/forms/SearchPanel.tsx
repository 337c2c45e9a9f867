import { type SearchAnswer, searchSummary } from '@dossier/core';
import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';

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
  searchOnOpen?: boolean;
}

/** A search form, its result list with the summary, and left/right paging arrows (spec 3). */
export function SearchPanel<T>(props: SearchPanelProps<T>) {
  const { t } = useTranslation();
  const { api, view } = useServices();
  const pageSize = props.pageSize ?? 20;
  // The search is bound to the address: the terms are written to it, and the trigger flag
  // (search=1) runs the search again when the page is opened from that address (back button, link).
  const [terms, setTerms] = useState<Record<string, string>>(() => termsFromAddress(props.fields));
  const [result, setResult] = useState<SearchAnswer<T> | undefined>();
  const [searching, setSearching] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const started = useRef(false);

  async function run(offset: number, current = terms) {
    setSearching(true);
    setResult(undefined);
    setErrors({});
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(current)) if (v.trim()) query.set(k, v.trim());
    query.set('pageOffset', String(offset));
    writeAddress(query);
    query.set('pageSize', String(pageSize));
    try {
      setResult(await api.get<SearchAnswer<T>>(`${props.path}?${query}`));
    } catch (error) {
      // A refused term is shown at its field; anything else goes to the banner.
      if (error instanceof ApiError && error.status === 400 && error.fields) setErrors(error.fields);
      else view.report(error);
    } finally {
      setSearching(false);
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on opening the page
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const address = new URLSearchParams(window.location.search);
    if (address.get('search') === '1' || props.searchOnOpen) void run(Number(address.get('pageOffset')) || 0);
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run(0);
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
            <Group gap={4}>
              <ActionIcon
                variant="default"
                aria-label={t('admin.search.previous')}
                disabled={offset === 0}
                onClick={() => void run(Math.max(0, offset - pageSize))}
                data-testid="search-previous"
              >
                <IconChevronLeft size={16} />
              </ActionIcon>
              <ActionIcon
                variant="default"
                aria-label={t('admin.search.next')}
                disabled={offset + result.hits.length >= result.total}
                onClick={() => void run(offset + pageSize)}
                data-testid="search-next"
              >
                <IconChevronRight size={16} />
              </ActionIcon>
            </Group>
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

function termsFromAddress(fields: { name: string }[]): Record<string, string> {
  const address = new URLSearchParams(window.location.search);
  const terms: Record<string, string> = {};
  for (const f of fields) {
    const value = address.get(f.name);
    if (value) terms[f.name] = value;
  }
  return terms;
}

function writeAddress(query: URLSearchParams): void {
  const address = new URLSearchParams(query);
  address.set('search', '1');
  window.history.replaceState(window.history.state, '', `${window.location.pathname}?${address}`);
}
