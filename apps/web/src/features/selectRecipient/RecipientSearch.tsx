import type { RecipientHit, SelectRecipientView } from '@dossier/core';
import {
  ActionIcon,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SEARCH_FIELDS, selectRecipientPath } from './types';

/**
 * The directory search of the page. Searching writes the terms to the address with
 * `search._trigger=1`, and the server answers the page with the hits, so the address repeats it.
 */
export function RecipientSearch({
  view,
  disabled,
  onPick,
}: {
  view: SelectRecipientView;
  disabled: boolean;
  onPick(hit: RecipientHit): void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [terms, setTerms] = useState(view.search.terms);
  const result = view.search.result;
  const offset = result?.paging.offset ?? 0;
  const go = (extra: Record<string, string>) =>
    navigate(selectRecipientPath(view.requestNumber, terms, extra));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void go({ 'search._trigger': '1' });
  };
  return (
    <Paper withBorder p="md" data-testid="recipient-search">
      <Title order={4} mb="sm">
        {t('selectRecipient.search.title')}
      </Title>
      <form onSubmit={onSubmit}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          {SEARCH_FIELDS.map((f) => (
            <TextInput
              key={f}
              label={t(`selectRecipient.search.${f}`)}
              value={terms[f]}
              onChange={(e) => setTerms({ ...terms, [f]: e.currentTarget.value })}
              data-testid={`recipient-search-${f}`}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end" mt="md">
          <Button
            variant="default"
            disabled={disabled}
            onClick={() => void go({ enterNew: '1' })}
            data-testid="recipient-enter-new"
          >
            {t('selectRecipient.search.enterNew')}
          </Button>
          <Button type="submit" data-testid="recipient-search-submit">
            {t('selectRecipient.search.submit')}
          </Button>
        </Group>
      </form>
      {result && (
        <Stack gap="xs" mt="md">
          <Group justify="space-between">
            <Text size="sm" data-testid="recipient-search-summary">
              {result.summary}
            </Text>
            <Group gap={4}>
              <ActionIcon
                variant="default"
                aria-label={t('selectRecipient.search.previous')}
                disabled={offset === 0}
                onClick={() =>
                  void go({
                    'search._trigger': '1',
                    pageOffset: String(Math.max(0, offset - result.paging.size)),
                  })
                }
              >
                <IconChevronLeft size={16} />
              </ActionIcon>
              <ActionIcon
                variant="default"
                aria-label={t('selectRecipient.search.next')}
                disabled={offset + result.hits.length >= result.total}
                onClick={() =>
                  void go({ 'search._trigger': '1', pageOffset: String(offset + result.paging.size) })
                }
              >
                <IconChevronRight size={16} />
              </ActionIcon>
            </Group>
          </Group>
          {result.hits.length > 0 && (
            <Table striped highlightOnHover>
              <Table.Tbody>
                {result.hits.map(({ id, item }) => (
                  <Table.Tr key={id} data-testid={`recipient-hit-${id}`}>
                    <Table.Td>{item.name}</Table.Td>
                    <Table.Td>{item.phone}</Table.Td>
                    <Table.Td>{item.email}</Table.Td>
                    <Table.Td>{item.address}</Table.Td>
                    <Table.Td ta="right">
                      <Button
                        size="compact-sm"
                        variant="light"
                        disabled={disabled}
                        onClick={() => onPick(item)}
                        data-testid="recipient-pick"
                      >
                        {t('selectRecipient.search.pick')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      )}
    </Paper>
  );
}
