import { type SearchAnswer, searchSummary } from '@dossier/core';
import { Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';

export interface StepSearchColumn<T> {
  label: string;
  render(item: T): ReactNode;
}

/**
 * The search half of the Applicant and Recipient steps: a search form, its hits with Select, and
 * Enter New, which opens the form filled from the terms typed.
 */
export function StepSearch<T>(props: {
  title: string;
  fields: { name: string; label: string; placeholder?: string }[];
  /** The search call, with the terms filled in (trimmed; empty ones left out). */
  search(terms: Record<string, string>): Promise<SearchAnswer<T>>;
  columns: StepSearchColumn<T>[];
  onPick(item: T, id: string): void;
  onEnterNew(terms: Record<string, string>): void;
  isDisabled?(item: T): boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const { view } = useServices();
  const [terms, setTerms] = useState<Record<string, string>>({});
  const [result, setResult] = useState<SearchAnswer<T>>();
  const [searching, setSearching] = useState(false);

  async function run(event: FormEvent) {
    event.preventDefault();
    const filled: Record<string, string> = {};
    for (const [k, v] of Object.entries(terms)) if (v.trim()) filled[k] = v.trim();
    setSearching(true);
    try {
      setResult(await props.search(filled));
    } catch (error) {
      view.report(error);
    } finally {
      setSearching(false);
    }
  }

  return (
    <Stack data-testid={props.testId}>
      <Paper withBorder p="md" component="form" onSubmit={run}>
        <Title order={5} mb="xs">
          {props.title}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: props.fields.length > 3 ? 4 : 3 }}>
          {props.fields.map((f) => (
            <TextInput
              key={f.name}
              label={f.label}
              placeholder={f.placeholder}
              value={terms[f.name] ?? ''}
              onChange={(e) => setTerms({ ...terms, [f.name]: e.currentTarget.value })}
              data-testid={`${props.testId}-${f.name}`}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end" mt="md">
          <Button
            variant="default"
            onClick={() => props.onEnterNew(terms)}
            data-testid={`${props.testId}-new`}
          >
            {t('wizard.enterNew')}
          </Button>
          <Button type="submit" loading={searching} data-testid={`${props.testId}-run`}>
            {t('wizard.search')}
          </Button>
        </Group>
      </Paper>
      {result && (
        <Paper withBorder p="md">
          <Text size="sm" c="dimmed" mb="xs" data-testid={`${props.testId}-summary`}>
            {searchSummary(result)}
          </Text>
          {result.hits.length > 0 && (
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  {props.columns.map((c) => (
                    <Table.Th key={c.label}>{c.label}</Table.Th>
                  ))}
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.hits.map((hit) => (
                  <Table.Tr key={hit.id} data-testid={`${props.testId}-hit`}>
                    {props.columns.map((c) => (
                      <Table.Td key={c.label}>{c.render(hit.item)}</Table.Td>
                    ))}
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        {...(props.isDisabled !== undefined && { disabled: props.isDisabled(hit.item) })}
                        onClick={() => props.onPick(hit.item, hit.id)}
                        data-testid={`${props.testId}-select`}
                      >
                        {t('wizard.select')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      )}
    </Stack>
  );
}
