import type { InvoiceItem, InvoicePaymentItem } from '@dossier/core';
import { Anchor, Button, Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Field } from '../../../ui/Field';
import { formatDateTime } from '../results/ResultPage';
import { formatMinorUnits } from './money';

/**
 * The payments of an invoice, oldest first (part payments and the one that settled it); each
 * payment has its own remittance advice. The payee links to its entry only with payee:view.
 */
export function PaymentsSection({
  invoice,
  canViewPayee,
  onSendAdvice,
}: {
  invoice: InvoiceItem;
  canViewPayee: boolean;
  /** Set when the remittance advice may be sent. */
  onSendAdvice?: ((payment: InvoicePaymentItem) => void) | undefined;
}) {
  const { t } = useTranslation();
  if (invoice.payments.length === 0) return null;
  return (
    <Paper withBorder p="md" data-testid="payments-section">
      <Title order={4} mb="sm">
        {t('invoices.payments.title')}
      </Title>
      <Stack>
        {invoice.payments.map((p) => (
          <PaymentSection
            key={p.paymentId}
            payment={p}
            canViewPayee={canViewPayee}
            onSendAdvice={onSendAdvice}
          />
        ))}
        {invoice.paymentConfirmedAt && (
          <Field label={t('invoices.fields.paymentConfirmedAt')} testId="payment-confirmed-at">
            {formatDateTime(invoice.paymentConfirmedAt)}
          </Field>
        )}
      </Stack>
    </Paper>
  );
}

function PaymentSection({
  payment: p,
  canViewPayee,
  onSendAdvice,
}: {
  payment: InvoicePaymentItem;
  canViewPayee: boolean;
  onSendAdvice?: ((payment: InvoicePaymentItem) => void) | undefined;
}) {
  const { t } = useTranslation();
  const money = (minor: number) => `${p.currency} ${formatMinorUnits(minor)}`;
  return (
    <Paper withBorder p="sm" data-testid="payment-section" data-payment-id={p.paymentId}>
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
          {formatDateTime(p.paidAt)}
          {p.paidByDisplayName ? ` · ${p.paidByDisplayName}` : ''}
        </Field>
        {p.remittanceAdvice && (
          <Field label={t('invoices.remittanceAdvice')}>
            <Anchor
              href={`/files/${p.remittanceAdvice.key}`}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="remittance-file"
            >
              {p.remittanceAdvice.name ?? p.remittanceAdvice.key}
            </Anchor>
          </Field>
        )}
        {onSendAdvice && (
          <Button
            variant="light"
            size="xs"
            onClick={() => onSendAdvice(p)}
            data-testid="payment-sendRemittanceAdvice"
          >
            {t('invoices.actions.sendRemittanceAdvice')}
          </Button>
        )}
      </SimpleGrid>
    </Paper>
  );
}
