import { inboxSearchRoute, type View } from '@dossier/core';
import {
  Badge,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { followTopic, onLiveReconnected } from '../../shell/liveChanges';
import { DateField } from '../../ui/DateField';
import { formatDateTime, useBusinessZoneHint } from '../../ui/dates';
import { PagingArrows } from '../../ui/forms/PagingArrows';
import { useSearch } from '../../ui/forms/useSearch';
import { followChanges } from '../../view/follow';
import { definePage } from '../../view/page';
import { senderOf } from './types';

const PAGE_SIZE = 20;
/** The live topic the server announces new mail and link changes on. */
const INBOX_TOPIC = 'inbox';
const FIELDS = ['sender', 'content', 'receivedAtFrom', 'receivedAtTo'] as const;
type Terms = Record<(typeof FIELDS)[number], string>;
const EMPTY: Terms = { sender: '', content: '', receivedAtFrom: '', receivedAtTo: '' };

/** /inbox: search by sender, content and received dates; newest messages first. */
export const InboxPage = definePage<View>(({ view }) => {
  const { t } = useTranslation();
  const daysHint = useBusinessZoneHint('days');
  const [terms, setTerms] = useState<Terms>(EMPTY);
  // The inbox opens on its newest messages.
  const { result, searching, errors, run, refresh } = useSearch({
    route: inboxSearchRoute,
    pageSize: PAGE_SIZE,
    initialTerms: EMPTY,
    searchOnOpen: true,
  });
  // New mail and link changes come in live: the shown page of results is asked again in place
  // (a burst of messages is one load).
  const latestRefresh = useRef(refresh);
  latestRefresh.current = refresh;
  useEffect(() => {
    const follower = followChanges({
      fetch: async () => undefined,
      isEditing: () => false,
      apply: () => void latestRefresh.current(),
      hold: () => undefined,
    });
    const stop = followTopic(INBOX_TOPIC, () => follower.changed());
    const stopReconnected = onLiveReconnected(() => follower.changed());
    return () => {
      stop();
      stopReconnected();
      follower.stop();
    };
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run(0, terms);
  };
  const offset = result?.paging.offset ?? 0;
  return (
    <Container size="lg" data-testid="inbox-page">
      <Title order={2} mb="md">
        {view.title}
      </Title>
      <Paper withBorder p="md" component="form" onSubmit={onSubmit} data-testid="inbox-form">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          {(['sender', 'content'] as const).map((name) => (
            <TextInput
              key={name}
              label={t(`inbox.fields.${name}`)}
              value={terms[name]}
              onChange={(e) => setTerms({ ...terms, [name]: e.currentTarget.value })}
              error={errors[name]}
              data-testid={`inbox-${name}`}
            />
          ))}
          {(['receivedAtFrom', 'receivedAtTo'] as const).map((name) => (
            <DateField
              key={name}
              label={t(`inbox.fields.${name}`)}
              description={daysHint}
              value={terms[name] || null}
              onChange={(value) => setTerms({ ...terms, [name]: value ?? '' })}
              invalidMessage={t('inbox.invalidDate')}
              error={errors[name]}
              data-testid={`inbox-${name}`}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end" mt="md">
          <Button
            variant="default"
            onClick={() => {
              setTerms(EMPTY);
              void run(0, EMPTY);
            }}
            data-testid="inbox-clear"
          >
            {t('inbox.clear')}
          </Button>
          <Button type="submit" loading={searching} disabled={searching} data-testid="inbox-search">
            {t('inbox.search')}
          </Button>
        </Group>
      </Paper>
      {result && (
        <Stack gap="xs" mt="md" data-testid="inbox-result">
          <Group justify="space-between">
            <Text size="sm" data-testid="inbox-summary">
              {result.summary}
            </Text>
            <PagingArrows
              offset={offset}
              shown={result.hits.length}
              total={result.total}
              pageSize={PAGE_SIZE}
              onPage={(next) => void run(next, terms)}
              labels={{ previous: t('inbox.previous'), next: t('inbox.next') }}
            />
          </Group>
          {result.hits.length > 0 && (
            <Table striped highlightOnHover data-testid="inbox-hits">
              <Table.Thead>
                <Table.Tr>
                  {(['receivedAt', 'from', 'subject', 'requests'] as const).map((c) => (
                    <Table.Th key={c}>{t(`inbox.columns.${c}`)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.hits.map(({ id, item }) => (
                  <Table.Tr key={id} data-testid="inbox-hit">
                    <Table.Td>{formatDateTime(item.receivedAt)}</Table.Td>
                    <Table.Td>{senderOf(item.from) || t('inbox.unknownSender')}</Table.Td>
                    <Table.Td>
                      <Link to={`/inbox/messages/${encodeURIComponent(id)}`} data-testid="inbox-hit-link">
                        {item.subject || t('inbox.noSubject')}
                      </Link>
                      {item.flagReason && (
                        <Badge ml="xs" color="red" variant="light">
                          {t('inbox.flagged')}
                        </Badge>
                      )}
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {item.bodyPlainText}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {item.requestNumbers.length === 0 ? (
                        <Text size="sm" c="dimmed">
                          {t('inbox.unlinked')}
                        </Text>
                      ) : (
                        item.requestNumbers.map((n) => (
                          <Link key={n} to={`/requests/${n}`} style={{ marginRight: 8 }}>
                            {n}
                          </Link>
                        ))
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      )}
    </Container>
  );
});
