import {
  amountsAddUp,
  CURRENCIES,
  defaultCurrency,
  type FileRef,
  REQUEST_TAGS,
  type TagValues,
} from '@dossier/core';
import { Button, Group, Paper, Select, SimpleGrid, Stack, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActionPanelProps } from '../actions/panels';
import { useRequestCommit } from '../requestApi';
import { RequestFileChoice } from '../results/RequestFileChoice';
import { missingTags, TagSelects } from '../results/TagSelects';
import { CurrencyInput } from './CurrencyInput';
import { parseCurrencyInput } from './money';

type AmountField = 'amountExclusiveTax' | 'tax' | 'amount';
const AMOUNT_FIELDS: AmountField[] = ['amountExclusiveTax', 'tax', 'amount'];

/** addInvoice: a file (uploaded or from the correspondence), the invoice tags, optional amounts, a notice. */
export function AddInvoicePanel({ view, onDone, onCancel }: ActionPanelProps) {
  const { t } = useTranslation();
  const definitions = view.lookups?.tags?.invoice ?? REQUEST_TAGS.invoice;
  const [file, setFile] = useState<FileRef | null>(null);
  const [tags, setTags] = useState<TagValues>({});
  const [notice, setNotice] = useState('');
  const [amounts, setAmounts] = useState<Record<AmountField, string>>({
    amountExclusiveTax: '',
    tax: '',
    amount: '',
  });
  const [currency, setCurrency] = useState(defaultCurrency());
  const action = useRequestCommit();

  const parsed = Object.fromEntries(AMOUNT_FIELDS.map((f) => [f, parseCurrencyInput(amounts[f])])) as Record<
    AmountField,
    number | undefined
  >;
  const invalidAmount = AMOUNT_FIELDS.some((f) => amounts[f].trim() !== '' && parsed[f] === undefined);
  const sumWrong = !amountsAddUp(parsed);
  const missing = missingTags(definitions, tags, (name) => t('results.tagRequired', { name }));
  const canSave =
    file !== null && Object.keys(missing).length === 0 && !invalidAmount && !sumWrong && !action.busy;

  async function save() {
    const anyAmount = AMOUNT_FIELDS.some((f) => parsed[f] !== undefined);
    const body = {
      file,
      tags,
      notice: notice.trim() || null,
      ...Object.fromEntries(AMOUNT_FIELDS.map((f) => [f, parsed[f] ?? null])),
      currency: anyAmount ? currency : null,
    };
    if (await action.runAction(view.request.requestNumber, 'addInvoice', body)) onDone();
  }

  return (
    <Paper withBorder p="md" data-testid="panel-addInvoice">
      <Stack>
        <Title order={4}>{t('invoices.add.title')}</Title>
        <RequestFileChoice
          view={view}
          value={file}
          onChange={(value) => {
            setFile(value);
            action.changed('file');
          }}
          error={action.fields.file}
          disabled={action.busy}
        />
        <TagSelects
          definitions={definitions}
          values={tags}
          onChange={setTags}
          errors={action.fields}
          disabled={action.busy}
        />
        <SimpleGrid cols={{ base: 1, sm: 4 }}>
          {AMOUNT_FIELDS.map((field) => (
            <CurrencyInput
              key={field}
              label={t(`invoices.fields.${field}`)}
              value={amounts[field]}
              onChange={(text) => setAmounts({ ...amounts, [field]: text })}
              error={field === 'amount' && sumWrong ? t('invoices.rules.sum') : action.fields[field]}
              disabled={action.busy}
              data-testid={`invoice-${field}`}
            />
          ))}
          <Select
            label={t('invoices.fields.currency')}
            data={CURRENCIES.map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` }))}
            value={currency}
            onChange={(value) => setCurrency(value ?? defaultCurrency())}
            allowDeselect={false}
            error={action.fields.currency}
            disabled={action.busy}
            data-testid="invoice-currency"
          />
        </SimpleGrid>
        <Textarea
          label={t('invoices.notice')}
          value={notice}
          onChange={(e) => setNotice(e.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={10_000}
          disabled={action.busy}
          data-testid="invoice-notice"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={action.busy} data-testid="panel-cancel">
            {t('invoices.actions.cancel')}
          </Button>
          <Button
            onClick={() => void save()}
            disabled={!canSave}
            loading={action.busy}
            data-testid="panel-save"
          >
            {t('invoices.add.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
