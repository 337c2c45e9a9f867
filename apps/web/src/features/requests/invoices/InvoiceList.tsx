import { Anchor, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../ui/dates';
import { StatusBadge } from '../../../ui/StatusBadge';
import type { RequestListProps } from '../lists';
import { LinkedListFrame } from '../results/LinkedListFrame';
import { StoredFileLink } from '../results/StoredFileLink';
import { INVOICE_STATUS_COLORS, invoiceStatus } from './invoiceStatus';
import { formatMinorUnits } from './money';

/**
 * The Invoices list of the request page: each invoice with its status, the amount billed, paid and
 * left (balance), its file and page link.
 */
export function InvoiceList({ view }: RequestListProps) {
  const { t } = useTranslation();
  const n = view.request.requestNumber;
  return (
    <LinkedListFrame
      title={t('invoices.title')}
      empty={t('invoices.none')}
      items={view.invoices}
      testId="request-invoices"
      render={(items) => (
        <Table striped highlightOnHover verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('invoices.tags')}</Table.Th>
              <Table.Th>{t('invoices.file')}</Table.Th>
              <Table.Th>{t('invoices.fields.amount')}</Table.Th>
              <Table.Th>{t('invoices.paid')}</Table.Th>
              <Table.Th>{t('invoices.balance')}</Table.Th>
              <Table.Th>{t('invoices.createdAt')}</Table.Th>
              <Table.Th>{t('invoices.statusLabel')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((invoice) => {
              const status = invoiceStatus(invoice);
              // The amount billed; what was paid and what is left are beside it.
              const currency = invoice.currency ?? invoice.payments[0]?.currency ?? '';
              const money = (minor: number | null | undefined) =>
                minor != null ? `${currency} ${formatMinorUnits(minor)}`.trim() : '—';
              return (
                <Table.Tr key={invoice.invoiceId} data-testid="invoice-item" data-status={status}>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`/requests/${n}/invoices/${invoice.invoiceId}`}
                      size="sm"
                      data-testid="invoice-link"
                    >
                      {Object.values(invoice.tags).join(', ') || t('invoices.open')}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <StoredFileLink
                      file={invoice.file}
                      removedAt={invoice.fileRemovedAt}
                      fallbackName={t('invoices.file')}
                      testId="invoice-file"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" data-testid="invoice-amount">
                      {money(invoice.amount)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" data-testid="invoice-paid">
                      {money(invoice.paid)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" data-testid="invoice-balance">
                      {money(invoice.balance)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(invoice.createdAt)}</Text>
                    {invoice.createdByDisplayName && (
                      <Text size="xs" c="dimmed">
                        {invoice.createdByDisplayName}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge
                      label={t(`invoices.status.${status}`)}
                      color={INVOICE_STATUS_COLORS[status]}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    />
  );
}
