import type { RecipientPageView } from '@dossier/core';
import {
  Alert,
  Button,
  FileInput,
  Group,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseAmount, useAnswer } from './useAnswer';

// The recipient's four ways to answer: records, an invoice, an answer without records, a message.
// Each is its own small form that sends at once; nothing is kept in the browser between them.

type Props = { view: RecipientPageView };

function Section(props: { title: string; testId: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" data-testid={props.testId} className="recipient-section">
      <Title order={3} size="h4" mb="sm">
        {props.title}
      </Title>
      {props.children}
    </Paper>
  );
}

function Outcome({
  sent,
  errors,
  testId,
}: {
  sent: boolean;
  errors: Record<string, string>;
  testId: string;
}) {
  const { t } = useTranslation();
  const problems = Object.values(errors).filter(Boolean);
  if (problems.length)
    return (
      <Alert color="red" data-testid={`${testId}-error`}>
        {problems.join(' ')}
      </Alert>
    );
  return sent ? (
    <Alert color="green" data-testid={`${testId}-sent`}>
      {t('recipientPage.sent')}
    </Alert>
  ) : null;
}

export function RecordsForm({ view }: Props) {
  const { t } = useTranslation();
  const { busy, sent, errors, send } = useAnswer(view);
  const [files, setFiles] = useState<File[]>([]);
  const [complete, setComplete] = useState('complete');
  const [message, setMessage] = useState('');
  const submit = async () => {
    const ok = await send(files, (keys) => ({
      kind: 'records',
      files: keys,
      complete: complete === 'complete',
      message,
    }));
    if (ok) {
      setFiles([]);
      setMessage('');
    }
  };
  return (
    <Section title={t('recipientPage.recordsTitle')} testId="recipient-records">
      <Stack gap="sm">
        <FileInput
          multiple
          label={t('recipientPage.files')}
          description={t('recipientPage.filesHint')}
          value={files}
          onChange={setFiles}
          clearable
          data-testid="recipient-records-files"
        />
        <Radio.Group value={complete} onChange={setComplete}>
          <Stack gap={4}>
            <Radio value="complete" label={t('recipientPage.complete')} data-testid="recipient-complete" />
            <Radio value="partial" label={t('recipientPage.partial')} data-testid="recipient-partial" />
          </Stack>
        </Radio.Group>
        <Textarea
          label={t('recipientPage.message')}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          autosize
          minRows={2}
        />
        <Outcome sent={sent} errors={errors} testId="recipient-records" />
        <Group>
          <Button
            onClick={() => void submit()}
            disabled={files.length === 0 || busy}
            loading={busy}
            data-testid="recipient-send-records"
          >
            {t('recipientPage.sendRecords')}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

export function InvoiceForm({ view }: Props) {
  const { t } = useTranslation();
  const { busy, sent, errors, send } = useAnswer(view);
  const request = view.request;
  const [file, setFile] = useState<File | null>(null);
  const [amounts, setAmounts] = useState({ amountExclusiveTax: '', tax: '', amount: '' });
  const [currency, setCurrency] = useState(request?.currencies[0]?.code ?? 'AUD');
  const [payeeId, setPayeeId] = useState<string>(request?.payees[0]?.payeeId ?? 'other');
  const [payee, setPayee] = useState({ name: '', referenceNumber: '', email: '', bankAccount: '' });
  const parsed = {
    amountExclusiveTax: parseAmount(amounts.amountExclusiveTax),
    tax: parseAmount(amounts.tax),
    amount: parseAmount(amounts.amount),
  };
  const addsUp =
    parsed.amount === undefined ||
    parsed.amountExclusiveTax === undefined ||
    parsed.tax === undefined ||
    parsed.amount === parsed.amountExclusiveTax + parsed.tax;
  const complete =
    file !== null &&
    Object.values(parsed).every((v) => v !== undefined) &&
    addsUp &&
    (payeeId !== 'other' || payee.name.trim() !== '');
  const amountField = (field: keyof typeof amounts) => (
    <TextInput
      key={field}
      label={t(`recipientPage.${field}`)}
      inputMode="decimal"
      value={amounts[field]}
      onChange={(e) => setAmounts({ ...amounts, [field]: e.currentTarget.value })}
      error={
        amounts[field] && parsed[field] === undefined
          ? t('recipientPage.amountFormat')
          : field === 'amount' && !addsUp
            ? t('recipientPage.amountWrong')
            : errors[field]
      }
      data-testid={`recipient-${field}`}
    />
  );
  const submit = async () => {
    const ok = await send(file ? [file] : [], ([key = '']) => ({
      kind: 'invoice',
      file: key,
      amountExclusiveTax: parsed.amountExclusiveTax ?? 0,
      tax: parsed.tax ?? 0,
      amount: parsed.amount ?? 0,
      currency,
      ...(payeeId === 'other'
        ? { payee }
        : { payeeId, payee: { name: '', bankAccount: payee.bankAccount, email: payee.email } }),
    }));
    if (ok) {
      setFile(null);
      setAmounts({ amountExclusiveTax: '', tax: '', amount: '' });
    }
  };
  return (
    <Section title={t('recipientPage.invoiceTitle')} testId="recipient-invoice">
      <Stack gap="sm">
        <FileInput
          label={t('recipientPage.invoiceFile')}
          value={file}
          onChange={setFile}
          clearable
          data-testid="recipient-invoice-file"
        />
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          {amountField('amountExclusiveTax')}
          {amountField('tax')}
          {amountField('amount')}
          <Select
            label={t('recipientPage.currency')}
            data={(request?.currencies ?? []).map((c) => ({ value: c.code, label: `${c.code} ${c.name}` }))}
            value={currency}
            onChange={(v) => v && setCurrency(v)}
            allowDeselect={false}
            data-testid="recipient-currency"
          />
        </SimpleGrid>
        <Select
          label={t('recipientPage.payee')}
          data={[
            ...(request?.payees ?? []).map((p) => ({ value: p.payeeId, label: p.name })),
            { value: 'other', label: t('recipientPage.enterPayee') },
          ]}
          value={payeeId}
          onChange={(v) => v && setPayeeId(v)}
          allowDeselect={false}
          data-testid="recipient-payee"
        />
        {payeeId !== 'other' && (
          <Text size="xs" c="dimmed">
            {t('recipientPage.changedDetails')}
          </Text>
        )}
        {
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {(payeeId === 'other'
              ? (['name', 'referenceNumber', 'email', 'bankAccount'] as const)
              : (['bankAccount', 'email'] as const)
            ).map((field) => (
              <TextInput
                key={field}
                label={t(
                  `recipientPage.${field === 'name' ? 'payeeName' : field === 'referenceNumber' ? 'payeeReference' : field === 'email' ? 'payeeEmail' : 'bankAccount'}`,
                )}
                value={payee[field]}
                onChange={(e) => setPayee({ ...payee, [field]: e.currentTarget.value })}
                data-testid={`recipient-payee-${field}`}
              />
            ))}
          </SimpleGrid>
        }
        <Outcome sent={sent} errors={errors} testId="recipient-invoice" />
        <Group>
          <Button
            onClick={() => void submit()}
            disabled={!complete || busy}
            loading={busy}
            data-testid="recipient-send-invoice"
          >
            {t('recipientPage.sendInvoice')}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

export function AnswerForm({ view }: Props) {
  const { t } = useTranslation();
  const { busy, sent, errors, send } = useAnswer(view);
  const [kind, setKind] = useState<'noRecords' | 'needMoreInformation' | 'readyBy'>('noRecords');
  const [message, setMessage] = useState('');
  const [date, setDate] = useState('');
  const ready =
    kind === 'noRecords' || (kind === 'readyBy' ? /^\d{4}-\d{2}-\d{2}$/.test(date) : message.trim() !== '');
  const submit = () =>
    send([], () =>
      kind === 'readyBy'
        ? { kind, date, message }
        : kind === 'needMoreInformation'
          ? { kind, message }
          : { kind, message },
    );
  return (
    <Section title={t('recipientPage.answerTitle')} testId="recipient-answer">
      <Stack gap="sm">
        <Radio.Group value={kind} onChange={(v) => setKind(v as typeof kind)}>
          <Stack gap={4}>
            {(['noRecords', 'needMoreInformation', 'readyBy'] as const).map((k) => (
              <Radio
                key={k}
                value={k}
                label={t(`recipientPage.${k}`)}
                data-testid={`recipient-answer-${k}`}
              />
            ))}
          </Stack>
        </Radio.Group>
        {kind === 'readyBy' && (
          <TextInput
            type="date"
            label={t('recipientPage.readyDate')}
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
            data-testid="recipient-ready-date"
          />
        )}
        <Textarea
          label={t(kind === 'needMoreInformation' ? 'recipientPage.answerMessage' : 'recipientPage.message')}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          autosize
          minRows={2}
          data-testid="recipient-answer-message"
        />
        <Outcome sent={sent} errors={errors} testId="recipient-answer" />
        <Group>
          <Button
            onClick={() => void submit()}
            disabled={!ready || busy}
            loading={busy}
            data-testid="recipient-send-answer"
          >
            {t('recipientPage.sendAnswer')}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

export function MessageForm({ view }: Props) {
  const { t } = useTranslation();
  const { busy, sent, errors, send } = useAnswer(view);
  const [message, setMessage] = useState('');
  const submit = async () => {
    if (await send([], () => ({ kind: 'message', message }))) setMessage('');
  };
  return (
    <Section title={t('recipientPage.messageTitle')} testId="recipient-message">
      <Stack gap="sm">
        <Textarea
          label={t('recipientPage.messageText')}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          autosize
          minRows={3}
          data-testid="recipient-message-text"
        />
        <Outcome sent={sent} errors={errors} testId="recipient-message" />
        <Group>
          <Button
            onClick={() => void submit()}
            disabled={!message.trim() || busy}
            loading={busy}
            data-testid="recipient-send-message"
          >
            {t('recipientPage.sendMessage')}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}
