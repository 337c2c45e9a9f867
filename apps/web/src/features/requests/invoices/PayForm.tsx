import { PAYMENT_METHODS, type PaymentMethod } from '@dossier/core';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../ui/dates';
import { CurrencyInput } from './CurrencyInput';
import type { ChosenPayee } from './PayeeSearch';
import { type PayFormState, payBody, payFormErrors } from './payForm';

/**
 * The payment fields after the payee search. A payee record fills the payee fields and locks them;
 * Confirm stays disabled until the required fields are filled and amount = amount excl. tax + tax.
 */
export function PayForm(props: {
  payee: ChosenPayee | null;
  initial: Pick<PayFormState, 'amountExclusiveTax' | 'tax' | 'amount' | 'currency'>;
  currencies: { code: string; name: string }[];
  serverErrors: Record<string, string>;
  busy: boolean;
  onConfirm(body: ReturnType<typeof payBody>): void;
  onChangePayee(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const p = props.payee;
  const [form, setForm] = useState<PayFormState>({
    payeeId: p?.id ?? null,
    payeeName: p?.name ?? '',
    payeeReferenceNumber: p?.referenceNumber ?? '',
    payeeEmail: p?.email ?? '',
    method: null,
    nameOnCard: '',
    bankAccount: p?.bankAccount ?? '',
    invoiceReferenceNumber: '',
    ...props.initial,
    currency: props.initial.currency || p?.currency || '',
  });
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const errors = payFormErrors(form);
  const locked = form.payeeId !== null;
  const set = <K extends keyof PayFormState>(field: K, value: PayFormState[K]) => {
    setForm({ ...form, [field]: value });
    setTouched(new Set(touched).add(field));
  };
  const label = (field: string) => t(`invoices.fields.${field}`);
  const errorOf = (field: string) => {
    if (props.serverErrors[field]) return props.serverErrors[field];
    const kind = errors[field];
    // The sum rule shows at once (the amount is marked invalid); the others once touched.
    if (!kind || (kind !== 'sum' && kind !== 'currency' && !touched.has(field))) return undefined;
    if (kind === 'required') return t('invoices.rules.required', { field: label(field) });
    return t(`invoices.rules.${kind}`);
  };
  const text = (
    field:
      | 'payeeName'
      | 'payeeReferenceNumber'
      | 'payeeEmail'
      | 'invoiceReferenceNumber'
      | 'nameOnCard'
      | 'bankAccount',
    options: { required?: boolean | undefined; disabled?: boolean | undefined } = {},
  ) => (
    <TextInput
      label={label(field)}
      value={form[field]}
      onChange={(e) => set(field, e.currentTarget.value)}
      {...(options.required !== undefined && { required: options.required })}
      disabled={options.disabled || props.busy}
      error={errorOf(field)}
      data-testid={`pay-${field}`}
    />
  );

  return (
    <Paper withBorder p="md" data-testid="pay-form">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>{t('invoices.actions.pay')}</Title>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={props.onChangePayee}
            data-testid="pay-change-payee"
          >
            {t('invoices.payeeSearch.change')}
          </Button>
        </Group>
        {locked && (
          <Alert color="blue" variant="light" data-testid="payee-locked">
            {t('invoices.payeeSearch.linked')}
          </Alert>
        )}
        {props.payee?.paymentDetailsChangedAt && (
          <Alert color="orange" data-testid="payee-details-changed">
            {t('invoices.payeeSearch.detailsChanged', {
              at: formatDateTime(props.payee.paymentDetailsChangedAt),
            })}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {text('payeeName', { required: true, disabled: locked })}
          {text('payeeReferenceNumber', { disabled: locked })}
          {text('payeeEmail', { disabled: locked })}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label={label('method')}
            data={PAYMENT_METHODS.map((m) => ({ value: m, label: t(`invoices.methods.${m}`) }))}
            value={form.method}
            onChange={(value) => set('method', value as PaymentMethod | null)}
            required
            allowDeselect={false}
            error={errorOf('method')}
            disabled={props.busy}
            data-testid="pay-method"
          />
          {form.method === 'creditCard' && text('nameOnCard', { required: true })}
          {form.method === 'bankTransfer' &&
            text('bankAccount', { required: true, disabled: locked && !!p?.bankAccount })}
          {text('invoiceReferenceNumber')}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 4 }}>
          {(['amountExclusiveTax', 'tax', 'amount'] as const).map((field) => (
            <CurrencyInput
              key={field}
              label={label(field)}
              value={form[field]}
              onChange={(value) => set(field, value)}
              required
              error={errorOf(field)}
              disabled={props.busy}
              data-testid={`pay-${field}`}
            />
          ))}
          <Select
            label={label('currency')}
            data={props.currencies.map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` }))}
            value={form.currency || null}
            onChange={(value) => set('currency', value ?? '')}
            required
            allowDeselect={false}
            error={errorOf('currency')}
            disabled={props.busy}
            data-testid="pay-currency"
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel} disabled={props.busy} data-testid="pay-cancel">
            {t('invoices.actions.cancel')}
          </Button>
          <Button
            onClick={() => props.onConfirm(payBody(form))}
            disabled={Object.keys(errors).length > 0}
            loading={props.busy}
            data-testid="pay-confirm"
          >
            {t('invoices.actions.confirm')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
