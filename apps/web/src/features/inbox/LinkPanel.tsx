import {
  canLinkInboxMessageRoute,
  isValidRequestNumber,
  linkInboxMessageRoute,
  REQUEST_NUMBER_PATTERN,
} from '@dossier/core';
import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { TagSelects } from '../../ui/TagSelects';
import { CLASSIFICATIONS, type Classification, type InboxMessageView } from './types';

interface Choice {
  classification: Classification;
  resultTags: Record<string, string>;
  invoiceTags: Record<string, string>;
}

/** Field errors of one attachment's tags, in the shape TagSelects reads (`tags.<id>`). */
function tagErrors(errors: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors))
    if (k.startsWith(prefix)) out[`tags.${k.slice(prefix.length)}`] = v;
  return out;
}

/**
 * Link / Classify: the request number is checked by format and check digits here, then by
 * the server's canLink; each attachment is classified (blocked ones are not offered), results and
 * invoices with their required tags.
 */
export function LinkPanel({
  view,
  initialNumber,
  onDone,
  onCancel,
}: {
  view: InboxMessageView;
  initialNumber: string;
  onDone(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const [number, setNumber] = useState(initialNumber);
  const [canLink, setCanLink] = useState<boolean | undefined>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [choices, setChoices] = useState<Choice[]>(() =>
    view.message.attachments.map((a) => ({
      classification: a.blocked ? 'notIncluded' : 'attachment',
      resultTags: {},
      invoiceTags: {},
    })),
  );
  useEffect(() => setNumber(initialNumber), [initialNumber]);

  const trimmed = number.trim().toUpperCase();
  const formatError = !trimmed
    ? undefined
    : !REQUEST_NUMBER_PATTERN.test(trimmed)
      ? t('inbox.link.badFormat')
      : !isValidRequestNumber(trimmed)
        ? t('inbox.link.badCheckDigits')
        : undefined;

  useEffect(() => {
    setCanLink(undefined);
    if (!trimmed || formatError) return;
    let current = true;
    api
      .call(canLinkInboxMessageRoute, {
        params: { messageId: view.message.messageId, requestNumber: trimmed },
      })
      .then((answer) => current && setCanLink(answer.canLink))
      .catch(() => current && setCanLink(false));
    return () => {
      current = false;
    };
  }, [api, trimmed, formatError, view.message.messageId]);

  const setChoice = (i: number, change: Partial<Choice>) =>
    setChoices(choices.map((c, j) => (j === i ? { ...c, ...change } : c)));

  async function submit() {
    setBusy(true);
    setErrors({});
    try {
      await api.call(linkInboxMessageRoute, {
        params: { messageId: view.message.messageId },
        body: {
          requestNumber: trimmed,
          attachments: choices.map((c) => ({
            classification: c.classification,
            ...(c.classification === 'result' || c.classification === 'invoiceAndResult'
              ? { resultTags: c.resultTags }
              : {}),
            ...(c.classification === 'invoice' || c.classification === 'invoiceAndResult'
              ? { invoiceTags: c.invoiceTags }
              : {}),
          })),
        },
      });
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.fields) setErrors(error.fields);
      else store.report(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md" data-testid="inbox-link-panel">
      <Title order={4} mb="sm">
        {t('inbox.actions.link')}
      </Title>
      <Stack gap="sm">
        <TextInput
          label={t('inbox.link.requestNumber')}
          description={t('inbox.link.requestNumberHint')}
          required
          value={number}
          onChange={(e) => setNumber(e.currentTarget.value)}
          error={
            formatError ??
            errors.requestNumber ??
            (canLink === false ? t('inbox.link.cannotLink') : undefined)
          }
          data-testid="inbox-link-number"
        />
        {canLink === true && (
          <Text size="sm" c="green" data-testid="inbox-can-link">
            {t('inbox.link.canLink')}
          </Text>
        )}
        {errors.attachments && <Alert color="red">{errors.attachments}</Alert>}
        {view.message.attachments.map((file, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the attachments and links of one message never reorder
          <Paper key={`${file.name}-${i}`} withBorder p="sm" data-testid="inbox-link-attachment">
            <Group justify="space-between" mb="xs">
              <Text fw={500}>{file.name}</Text>
              {file.blocked && (
                <Text size="xs" c="red">
                  {t('inbox.link.blockedNote')}
                </Text>
              )}
            </Group>
            {!file.blocked && choices[i] && (
              <Stack gap="xs">
                <Select
                  label={t('inbox.link.classification')}
                  data={CLASSIFICATIONS.map((c) => ({
                    value: c,
                    label: t(`inbox.link.classifications.${c}`),
                  }))}
                  value={choices[i].classification}
                  allowDeselect={false}
                  onChange={(v) => v && setChoice(i, { classification: v as Classification })}
                  error={errors[`attachments.${i}.classification`]}
                  data-testid="inbox-link-classification"
                />
                {(choices[i].classification === 'result' ||
                  choices[i].classification === 'invoiceAndResult') && (
                  <div data-testid="inbox-link-result-tags">
                    <Text size="sm" c="dimmed">
                      {t('inbox.link.resultTags')}
                    </Text>
                    <TagSelects
                      definitions={view.lookups.tags.result}
                      value={choices[i].resultTags}
                      onChange={(v) => setChoice(i, { resultTags: v })}
                      errors={tagErrors(errors, `attachments.${i}.resultTags.`)}
                    />
                  </div>
                )}
                {(choices[i].classification === 'invoice' ||
                  choices[i].classification === 'invoiceAndResult') && (
                  <div data-testid="inbox-link-invoice-tags">
                    <Text size="sm" c="dimmed">
                      {t('inbox.link.invoiceTags')}
                    </Text>
                    <TagSelects
                      definitions={view.lookups.tags.invoice}
                      value={choices[i].invoiceTags}
                      onChange={(v) => setChoice(i, { invoiceTags: v })}
                      errors={tagErrors(errors, `attachments.${i}.invoiceTags.`)}
                    />
                  </div>
                )}
              </Stack>
            )}
          </Paper>
        ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} data-testid="inbox-link-cancel">
            {t('inbox.actions.cancel')}
          </Button>
          <Button
            onClick={() => void submit()}
            loading={busy}
            disabled={busy || !trimmed || formatError !== undefined || canLink === false}
            data-testid="inbox-link-submit"
          >
            {t('inbox.actions.submitLink')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
