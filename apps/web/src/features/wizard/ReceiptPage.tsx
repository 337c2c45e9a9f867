import type { RequestReceiptView } from '@dossier/core';
import { Button, Container, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, formatDateTime } from '../../ui/dates';
import { definePage } from '../../view/page';

/** /requests/{n}/receipt: what was submitted, with its number and a link to the request. */
export const ReceiptPage = definePage<RequestReceiptView>(({ view }) => {
  const { t } = useTranslation();
  return (
    <Container size="md" data-testid="receipt-page">
      <Stack>
        <Group gap="xs">
          <IconCircleCheck color="var(--mantine-color-green-7)" />
          <Title order={2}>{t('wizard.receipt.title')}</Title>
        </Group>
        <Paper withBorder p="md">
          <Text>
            {t('wizard.receipt.thanks')}{' '}
            <Text span fw={700} ff="monospace" data-testid="receipt-number">
              {view.requestNumber}
            </Text>
            .
          </Text>
        </Paper>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Paper withBorder p="md">
            <Text size="sm" c="dimmed">
              {t('wizard.receipt.submittedAt')}
            </Text>
            <Text>{formatDateTime(view.submittedAt)}</Text>
            <Text size="sm" c="dimmed" mt="sm">
              {t('wizard.receipt.organization')}
            </Text>
            <Text>{view.organizationName}</Text>
          </Paper>
          <Paper withBorder p="md">
            <Text size="sm" c="dimmed">
              {t('wizard.receipt.applicant')}
            </Text>
            <Text data-testid="receipt-applicant">
              {view.applicant.name}
              {view.applicant.dateOfBirth ? ` (${formatDate(view.applicant.dateOfBirth)})` : ''}
            </Text>
            <Text size="sm" c="dimmed" mt="sm">
              {t('wizard.receipt.recipient')}
            </Text>
            <Text data-testid="receipt-recipient">{view.recipient.name}</Text>
          </Paper>
        </SimpleGrid>
        <Paper withBorder p="md">
          <Text size="sm" c="dimmed">
            {t('wizard.receipt.itemTypes')}
          </Text>
          <List data-testid="receipt-item-types">
            {view.itemTypes.map((item) => (
              <List.Item key={item.id}>{item.name}</List.Item>
            ))}
          </List>
        </Paper>
        <Group>
          <Button component={Link} to={view.requestPath} data-testid="receipt-open">
            {t('wizard.receipt.open')}
          </Button>
          <Button variant="default" component={Link} to="/requests/new">
            {t('wizard.receipt.another')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
});
