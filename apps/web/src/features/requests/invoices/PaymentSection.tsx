import type { InvoiceItem } from '@dossier/core';
import { Anchor, Paper, SimpleGrid, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Field, formatDateTime } from '../results/ResultPage';
import { formatMinorUnits } from './money';

/** The payment of a paid invoice; the payee links to its entry only with payee:view. */
export function PaymentSection({ invoice, canViewPayee }: { invoice: InvoiceItem; canViewPayee: boolean }) {
  const { t } = useTranslation();
  const p = invoice.payment;
  if (!p) return null;
  const money = (minor: number) => `${p.currency} ${formatMinorUnits(minor)}`;
  return (
    <Paper withBorder p="md" data-testid="payment-section">
      <Title order={4} mb="sm">
        {t('invoices.payment.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field label={t('invoices.payment.payee')} testId="payment-payee">
          {p.payeeId && canViewPayee ? (
            <Anchor component={Link} to={`/admin/payees/edit/${p.payeeId}`} data-testid="payment-payee-link">
              {p.payeeName}
            </Anchor>
          ) : (
            p.payeeName
          )}
        </Field>
        {p.payeeReferenceNumber && (
          <Field label={t('invoices.fields.payeeReferenceNumber')}>{p.payeeReferenceNumber}</Field>
        )}
        {p.payeeEmail && <Field label={t('invoices.fields.payeeEmail')}>{p.payeeEmail}</Field>}
        <Field label={t('invoices.fields.method')}>{t(`invoices.methods.${p.method}`)}</Field>
        {p.nameOnCard && <Field label={t('invoices.fields.nameOnCard')}>{p.nameOnCard}</Field>}
        {p.bankAccount && <Field label={t('invoices.fields.bankAccount')}>{p.bankAccount}</Field>}
        {p.invoiceReferenceNumber && (
          <Field label={t('invoices.fields.invoiceReferenceNumber')}>{p.invoiceReferenceNumber}</Field>
        )}
        <Field label={t('invoices.fields.amountExclusiveTax')}>{money(p.amountExclusiveTax)}</Field>
        <Field label={t('invoices.fields.tax')}>{money(p.tax)}</Field>
        <Field label={t('invoices.fields.amount')} testId="payment-amount">
          {money(p.amount)}
        </Field>
        <Field label={t('invoices.fields.paidAt')}>
          {formatDateTime(invoice.paidAt)}
          {invoice.paidByDisplayName ? ` · ${invoice.paidByDisplayName}` : ''}
        </Field>
        {invoice.paymentConfirmedAt && (
          <Field label={t('invoices.fields.paymentConfirmedAt')} testId="payment-confirmed-at">
            {formatDateTime(invoice.paymentConfirmedAt)}
          </Field>
        )}
        {invoice.remittanceAdvice && (
          <Field label={t('invoices.remittanceAdvice')}>
            <Anchor
              href={`/files/${invoice.remittanceAdvice.key}`}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="remittance-file"
            >
              {invoice.remittanceAdvice.name ?? invoice.remittanceAdvice.key}
            </Anchor>
          </Field>
        )}
      </SimpleGrid>
    </Paper>
  );
}
