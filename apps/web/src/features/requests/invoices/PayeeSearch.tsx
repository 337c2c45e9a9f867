import {
  NO_SEARCH_RESULT,
  type PayeeSummary,
  payeeSearchRoute,
  type RouteAnswer,
  searchSummary,
} from '@dossier/core';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../../shell/ServicesContext';

export type ChosenPayee = PayeeSummary & { id: string };

const FIELDS = ['name', 'referenceNumber', 'email', 'bankAccount'] as const;
const LABELS = {
  name: 'payeeName',
  referenceNumber: 'payeeReferenceNumber',
  email: 'payeeEmail',
  bankAccount: 'bankAccount',
} as const;

/** The payee search of the pay action (GET /payees/search): pick a payee record or enter one by hand. */
export function PayeeSearch(props: { onPick(payee: ChosenPayee | null): void; onCancel(): void }) {
  const { t } = useTranslation();
  const { api, view } = useServices();
  const [terms, setTerms] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<RouteAnswer<typeof payeeSearchRoute>>();
  const [searching, setSearching] = useState(false);

  async function search(event: FormEvent) {
    event.preventDefault();
    setSearching(true);
    const query = Object.fromEntries(FIELDS.map((f) => [f, terms[f]?.trim() || undefined]));
    try {
      setAnswer(await api.call(payeeSearchRoute, { query }));
    } catch (error) {
      view.report(error);
    } finally {
      setSearching(false);
    }
  }

  return (
    <Paper withBorder p="md" data-testid="payee-search">
      <Stack>
        <Title order={4}>{t('invoices.payeeSearch.title')}</Title>
        <form onSubmit={search}>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {FIELDS.map((field) => (
                <TextInput
                  key={field}
                  label={t(`invoices.fields.${LABELS[field]}`)}
                  value={terms[field] ?? ''}
                  onChange={(e) => setTerms({ ...terms, [field]: e.currentTarget.value })}
                  data-testid={`payee-search-${field}`}
                />
              ))}
            </SimpleGrid>
            <Group justify="space-between">
              <Button variant="default" onClick={props.onCancel} data-testid="pay-cancel">
                {t('invoices.actions.cancel')}
              </Button>
              <Group>
                <Button variant="light" onClick={() => props.onPick(null)} data-testid="payee-manual">
                  {t('invoices.payeeSearch.enterManually')}
                </Button>
                <Button type="submit" loading={searching} data-testid="payee-search-submit">
                  {t('invoices.payeeSearch.search')}
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
        {answer && answer.hits.length === 0 && (
          <Text c="dimmed" data-testid="payee-search-empty">
            {NO_SEARCH_RESULT}
          </Text>
        )}
        {answer && answer.hits.length > 0 && (
          <>
            <Text size="sm" c="dimmed" data-testid="payee-search-summary">
              {searchSummary(answer)}
            </Text>
            <Table striped data-testid="payee-search-results">
              <Table.Thead>
                <Table.Tr>
                  {FIELDS.map((field) => (
                    <Table.Th key={field}>{t(`invoices.fields.${LABELS[field]}`)}</Table.Th>
                  ))}
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {answer.hits.map(({ id, item }) => (
                  <Table.Tr key={id} data-testid="payee-hit">
                    <Table.Td>
                      {item.name}{' '}
                      {item.disabled && (
                        <Badge color="gray" size="xs">
                          {t('invoices.payeeSearch.disabled')}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{item.referenceNumber}</Table.Td>
                    <Table.Td>{item.email}</Table.Td>
                    <Table.Td>{item.bankAccount}</Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        disabled={item.disabled}
                        onClick={() => props.onPick({ ...item, id })}
                        data-testid="payee-select"
                      >
                        {t('invoices.payeeSearch.select')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
      </Stack>
    </Paper>
  );
}
