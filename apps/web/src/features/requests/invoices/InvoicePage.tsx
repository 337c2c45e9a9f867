import {
  balanceSplit,
  type InvoicePaymentItem,
  invoiceActionRoute,
  isValidEmail,
  pathOfRoute,
  type RequestInvoiceView,
} from '@dossier/core';
import { Anchor, Button, Container, Group, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../api';
import { useServices } from '../../../shell/ServicesContext';
import { Field } from '../../../ui/Field';
import { StatusBadge } from '../../../ui/StatusBadge';
import { useStore } from '../../../view/createStore';
import { definePage } from '../../../view/page';
import { ConfirmDiscard } from '../results/ConfirmDiscard';
import { formatDateTime } from '../results/ResultPage';
import { INVOICE_STATUS_COLORS, invoiceStatus } from './invoiceStatus';
import { formatMinorUnits, minorToInput } from './money';
import { type ChosenPayee, PayeeSearch } from './PayeeSearch';
import { PayForm } from './PayForm';
import { PaymentsSection } from './PaymentSection';

const money = (currency: string | null | undefined, minor: number | null | undefined) =>
  minor == null ? '—' : `${currency ?? ''} ${formatMinorUnits(minor)}`.trim();

/**
 * /requests/{n}/invoices/{invoiceId}: the invoice, its payment once paid, and the actions pay
 * (through the payee search, ?action=select-payee), sendRemittanceAdvice and discard.
 */
export const InvoicePage = definePage<RequestInvoiceView>(({ view }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { view: store } = useServices();
  const committing = useStore(store, (s) => s.committing);
  // undefined: still searching; null: payee entered by hand.
  const [payee, setPayee] = useState<ChosenPayee | null | undefined>(undefined);
  const [panel, setPanel] = useState<'sendRemittanceAdvice' | 'discard' | null>(null);
  const [email, setEmail] = useState('');
  // The payment whose remittance advice is sent; undefined: the newest.
  const [advicePayment, setAdvicePayment] = useState<InvoicePaymentItem | undefined>(undefined);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const inv = view.invoice;
  const status = invoiceStatus(inv);
  const newest = inv.payments.at(-1);
  const split = balanceSplit(inv, inv.payments);
  const openAdvice = (payment: InvoicePaymentItem | undefined) => {
    setAdvicePayment(payment);
    setEmail(payment?.payeeEmail ?? '');
    setPanel('sendRemittanceAdvice');
  };
  const page = `/requests/${view.requestNumber}/invoices/${inv.invoiceId}`;

  async function run(action: string, body: unknown) {
    setServerErrors({});
    const path = pathOfRoute(invoiceActionRoute.path, {
      requestNumber: view.requestNumber,
      invoiceId: inv.invoiceId,
      action,
    });
    const answer = await store.commit(path, body);
    if (answer.ok) {
      setPanel(null);
      setPayee(undefined);
      if (action === 'pay') navigate(page, { replace: true });
    } else if (answer.error instanceof ApiError) setServerErrors(answer.error.fields ?? {});
  }

  const leavePay = () => {
    setPayee(undefined);
    navigate(page);
  };
  const paying = view.action === 'select-payee';
  return (
    <Container size="lg" data-testid="invoice-page">
      <Stack>
        <Group justify="space-between">
          <Title order={2} data-testid="page-title">
            {view.title}
          </Title>
          <StatusBadge
            label={t(`invoices.status.${status}`)}
            color={INVOICE_STATUS_COLORS[status]}
            testId="invoice-status"
          />
        </Group>
        <Anchor
          component={Link}
          to={`/requests/${view.requestNumber}`}
          size="sm"
          data-testid="back-to-request"
        >
          {t('invoices.backToRequest', { requestNumber: view.requestNumber })}
        </Anchor>
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Field label={t('invoices.file')}>
              <Anchor
                href={`/files/${inv.file.key}`}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="invoice-file"
              >
                {inv.file.name ?? inv.file.key}
              </Anchor>
            </Field>
            <Field label={t('invoices.applicant')}>{view.applicantName}</Field>
            <Field label={t('invoices.createdAt')}>
              {formatDateTime(inv.createdAt)}
              {inv.createdByDisplayName ? ` · ${inv.createdByDisplayName}` : ''}
            </Field>
            {view.tagDefinitions.map((tag) => (
              <Field key={tag.id} label={tag.name} testId={`invoice-tag-${tag.id}`}>
                {inv.tags[tag.id] ?? '—'}
              </Field>
            ))}
            <Field label={t('invoices.fields.amountExclusiveTax')}>
              {money(inv.currency, inv.amountExclusiveTax)}
            </Field>
            <Field label={t('invoices.fields.tax')}>{money(inv.currency, inv.tax)}</Field>
            <Field label={t('invoices.fields.amount')} testId="invoice-amount">
              {money(inv.currency, inv.amount)}
            </Field>
            <Field label={t('invoices.paid')} testId="invoice-paid">
              {money(inv.currency ?? newest?.currency, inv.paid)}
            </Field>
            <Field label={t('invoices.balance')} testId="invoice-balance">
              {money(inv.currency, inv.balance)}
            </Field>
            {inv.notice && <Field label={t('invoices.notice')}>{inv.notice}</Field>}
            {inv.foreignReference && /^https?:\/\//i.test(inv.foreignReference.url) && (
              <Field label={t('invoices.foreignReference')}>
                <Anchor
                  href={inv.foreignReference.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="invoice-foreign-link"
                >
                  {inv.foreignReference.label || inv.foreignReference.url}
                </Anchor>
              </Field>
            )}
            {inv.discardedAt && (
              <Field label={t('invoices.fields.discardedAt')}>
                {formatDateTime(inv.discardedAt)}
                {inv.discardedByDisplayName ? ` · ${inv.discardedByDisplayName}` : ''}
              </Field>
            )}
          </SimpleGrid>
        </Paper>
        <PaymentsSection
          invoice={inv}
          canViewPayee={view.canViewPayee}
          onSendAdvice={view.actions.includes('sendRemittanceAdvice') && !paying ? openAdvice : undefined}
        />
        {paying && payee === undefined && <PayeeSearch onPick={setPayee} onCancel={leavePay} />}
        {paying && payee !== undefined && (
          <PayForm
            key={payee?.id ?? 'manual'}
            payee={payee}
            initial={
              // Once part is paid, the form offers the balance, split as what is left of the invoice's.
              inv.payments.length === 0
                ? {
                    amountExclusiveTax: minorToInput(inv.amountExclusiveTax),
                    tax: minorToInput(inv.tax),
                    amount: minorToInput(inv.amount),
                    currency: inv.currency ?? view.defaultCurrency,
                  }
                : {
                    // The balance split into what is left of the amount excl. tax and of the tax.
                    amountExclusiveTax: split ? minorToInput(split.amountExclusiveTax) : '',
                    tax: split ? minorToInput(split.tax) : '',
                    amount: minorToInput(inv.balance),
                    currency: inv.currency ?? view.defaultCurrency,
                  }
            }
            // A payment is in the invoice's currency: only that one is offered (any, for an invoice
            // received without one).
            currencies={
              inv.currency ? view.currencies.filter((c) => c.code === inv.currency) : view.currencies
            }
            serverErrors={serverErrors}
            busy={committing}
            onConfirm={(body) => void run('pay', body)}
            onChangePayee={() => setPayee(undefined)}
            onCancel={leavePay}
          />
        )}
        {panel === 'sendRemittanceAdvice' && (
          <Paper withBorder p="md" data-testid="panel-sendRemittanceAdvice">
            <Stack>
              <Title order={4}>{t('invoices.actions.sendRemittanceAdvice')}</Title>
              {advicePayment && (
                <Field label={t('invoices.fields.amount')} testId="remittance-payment">
                  {money(advicePayment.currency, advicePayment.amount)} ·{' '}
                  {formatDateTime(advicePayment.paidAt)}
                </Field>
              )}
              <TextInput
                label={t('invoices.fields.email')}
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                required
                error={
                  serverErrors.email ??
                  (email.trim() && !isValidEmail(email.trim()) ? t('invoices.rules.email') : undefined)
                }
                data-testid="remittance-email"
              />
              <Group justify="flex-end">
                <Button
                  variant="default"
                  onClick={() => setPanel(null)}
                  disabled={committing}
                  data-testid="panel-cancel"
                >
                  {t('invoices.actions.cancel')}
                </Button>
                <Button
                  onClick={() =>
                    void run('sendRemittanceAdvice', {
                      email: email.trim(),
                      paymentId: (advicePayment ?? newest)?.paymentId,
                    })
                  }
                  disabled={!isValidEmail(email.trim())}
                  loading={committing}
                  data-testid="remittance-send"
                >
                  {t('invoices.actions.send')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}
        {!paying && panel === null && view.actions.length > 0 && (
          <Group>
            {view.actions.map((action) => (
              <Button
                key={action}
                variant={action === 'discard' ? 'light' : 'filled'}
                {...(action === 'discard' && { color: 'red' })}
                onClick={() => {
                  if (action === 'pay') navigate(`${page}?action=select-payee`);
                  else if (action === 'sendRemittanceAdvice') openAdvice(newest);
                  else setPanel('discard');
                }}
                data-testid={`action-${action}`}
              >
                {t(`invoices.actions.${action}`)}
              </Button>
            ))}
          </Group>
        )}
        <ConfirmDiscard
          opened={panel === 'discard'}
          busy={committing}
          onCancel={() => setPanel(null)}
          onConfirm={() => void run('discard', {})}
        />
      </Stack>
    </Container>
  );
});
