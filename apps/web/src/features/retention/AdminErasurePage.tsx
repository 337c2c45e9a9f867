import {
  type AdminErasureView,
  adminErasureRoute,
  type ErasureMatch,
  eraseApplicantRoute,
} from '@dossier/core';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { DateField } from '../../ui/DateField';
import { formatDateTime } from '../../ui/dates';
import { useStore } from '../../view/createStore';
import { definePage } from '../../view/page';
import { RequestLinks } from './RetentionRuns';

function Matches({ matches }: { matches: ErasureMatch[] }) {
  const { t } = useTranslation();
  const col = (key: string) => t(`retention.erasure.columns.${key}`);
  if (matches.length === 0)
    return (
      <Text c="dimmed" data-testid="erasure-no-matches">
        {t('retention.erasure.noMatches')}
      </Text>
    );
  return (
    <Table data-testid="erasure-matches">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{col('request')}</Table.Th>
          <Table.Th>{col('applicant')}</Table.Th>
          <Table.Th>{col('dateOfBirth')}</Table.Th>
          <Table.Th>{col('status')}</Table.Th>
          <Table.Th>{col('closedAt')}</Table.Th>
          <Table.Th>{col('outcome')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {matches.map((m) => (
          <Table.Tr key={m.requestNumber} data-testid="erasure-match">
            <Table.Td>
              <Anchor component={Link} to={`/requests/${m.requestNumber}`} size="sm">
                {m.requestNumber}
              </Anchor>
            </Table.Td>
            <Table.Td>{m.applicantName}</Table.Td>
            <Table.Td>{m.dateOfBirth ?? ''}</Table.Td>
            <Table.Td>{t(`request.status.${m.status}`, { defaultValue: m.status })}</Table.Td>
            <Table.Td>{m.closedAt ? formatDateTime(m.closedAt) : ''}</Table.Td>
            <Table.Td>
              {m.leftBecause ? (
                <Badge color="orange" variant="light" data-testid="erasure-left">
                  {t(`retention.erasure.leftBecause.${m.leftBecause}`)}
                </Badge>
              ) : (
                <Badge color="red" variant="light" data-testid="erasure-will-erase">
                  {t('retention.erasure.willErase')}
                </Badge>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** /admin/retention/erasure: find an applicant across the administrator's scopes and erase them. */
export const AdminErasurePage = definePage<AdminErasureView>(({ view }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { view: store } = useServices();
  const committing = useStore(store, (s) => s.committing);
  const [search, setSearch] = useState(view.search);
  const [requestedBy, setRequestedBy] = useState('');
  const [reason, setReason] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const label = (key: string) => t(`retention.erasure.${key}`);

  function find() {
    const query = new URLSearchParams(Object.entries(search).filter(([, v]) => v.trim()));
    void navigate(`${adminErasureRoute.path}?${query}`);
  }
  async function erase() {
    const body = { ...view.search, requestedBy, reason };
    const result = await store.commit(eraseApplicantRoute.path, body);
    setFields(!result.ok && result.error instanceof ApiError ? (result.error.fields ?? {}) : {});
    if (result.ok) {
      setRequestedBy('');
      setReason('');
    }
  }
  const erasable = view.matches?.filter((m) => !m.leftBecause).length ?? 0;
  return (
    <Container size="xl" data-testid="admin-erasure-page">
      <Stack>
        <Title order={2} data-testid="page-title">
          {view.title}
        </Title>
        <Anchor component={Link} to="/admin/retention" size="sm">
          {label('back')}
        </Anchor>
        <Text size="sm" c="dimmed">
          {label('intro')}
        </Text>
        {view.done && (
          <Alert color="green" title={label('doneTitle')} data-testid="erasure-done">
            <Stack gap={4}>
              <Text size="sm">
                {t('retention.erasure.doneText', {
                  requests: view.done.requestsDeIdentified,
                  files: view.done.filesRemoved,
                })}
              </Text>
              <RequestLinks numbers={view.done.requestNumbers} />
              {view.done.leftRequests.map((l) => (
                <Text size="sm" key={l.requestNumber} data-testid="erasure-done-left">
                  {t('retention.erasure.leftLine', {
                    requestNumber: l.requestNumber,
                    why: t(`retention.left.${l.reason}`),
                  })}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        <Paper withBorder p="md">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              find();
            }}
          >
            <Group align="flex-end">
              <TextInput
                label={label('name')}
                required
                value={search.name}
                onChange={(e) => setSearch({ ...search, name: e.currentTarget.value })}
                data-testid="erasure-name"
              />
              <DateField
                label={label('dateOfBirth')}
                past
                invalidMessage={label('dateInvalid')}
                value={search.dateOfBirth || null}
                onChange={(v) => setSearch({ ...search, dateOfBirth: v ?? '' })}
                data-testid="erasure-date-of-birth"
              />
              <TextInput
                label={label('reference')}
                value={search.reference}
                onChange={(e) => setSearch({ ...search, reference: e.currentTarget.value })}
                data-testid="erasure-reference"
              />
              <Button type="submit" disabled={!search.name.trim()} data-testid="erasure-find">
                {label('find')}
              </Button>
            </Group>
          </form>
        </Paper>
        {view.matches && (
          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              {label('matchesTitle')}
            </Title>
            <Matches matches={view.matches} />
            {view.matches.length > 0 && (
              <Stack mt="md" gap="sm">
                <TextInput
                  label={label('requestedBy')}
                  description={label('requestedByHint')}
                  required
                  value={requestedBy}
                  onChange={(e) => setRequestedBy(e.currentTarget.value)}
                  error={fields.requestedBy}
                  data-testid="erasure-requested-by"
                />
                <Textarea
                  label={label('reason')}
                  required
                  autosize
                  minRows={2}
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                  error={fields.reason}
                  data-testid="erasure-reason"
                />
                {(fields.dateOfBirth || fields.name) && (
                  <Text size="sm" c="red" data-testid="erasure-search-error">
                    {fields.dateOfBirth ?? fields.name}
                  </Text>
                )}
                <Group justify="flex-end">
                  <Button
                    color="red"
                    loading={committing}
                    disabled={erasable === 0 || !requestedBy.trim() || !reason.trim()}
                    onClick={() => void erase()}
                    data-testid="erasure-erase"
                  >
                    {t('retention.erasure.erase', { count: erasable })}
                  </Button>
                </Group>
              </Stack>
            )}
          </Paper>
        )}
      </Stack>
    </Container>
  );
});
