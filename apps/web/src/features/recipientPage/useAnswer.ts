import {
  type RecipientAnswer,
  type RecipientPageView,
  recipientAnswerRoute,
  recipientUploadRoute,
} from '@dossier/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';

// Sending one answer of the recipient: its files first (each checked by the server as it arrives),
// then the answer naming them. The answer comes back as the page as it now is.

const CURRENCY_INPUT = /^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/;

/** "1,234.5" → 123450 minor units; undefined when the text is not an amount. */
export function parseAmount(text: string): number | undefined {
  const trimmed = text.trim();
  if (!CURRENCY_INPUT.test(trimmed)) return undefined;
  const [whole, decimals = ''] = trimmed.replaceAll(',', '').split('.');
  const minor = Number(whole) * 100 + Number(decimals.padEnd(2, '0'));
  return Number.isSafeInteger(minor) ? minor : undefined;
}

export function useAnswer(view: RecipientPageView) {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function upload(file: File): Promise<string> {
    try {
      const stored = await api.call(
        recipientUploadRoute,
        { params: { token: view.token }, query: { name: file.name } },
        { bytes: file },
      );
      return stored.key;
    } catch (failure) {
      const reason =
        failure instanceof ApiError ? (failure.fields?.file ?? failure.serverMessage) : undefined;
      throw new UploadFailed(
        `${t('recipientPage.uploadFailed', { name: file.name })}${reason ? `: ${reason}` : ''}`,
      );
    }
  }

  /** Uploads the files, then sends the answer `make` builds from their keys. */
  async function send(files: File[], make: (keys: string[]) => RecipientAnswer): Promise<boolean> {
    setBusy(true);
    setSent(false);
    setErrors({});
    try {
      const keys: string[] = [];
      for (const file of files) keys.push(await upload(file));
      const page = await api.call(recipientAnswerRoute, { params: { token: view.token }, body: make(keys) });
      store.patch(() => page);
      setSent(true);
      return true;
    } catch (failure) {
      if (failure instanceof UploadFailed) setErrors({ file: failure.message });
      else if (failure instanceof ApiError && (failure.fields || failure.serverMessage))
        setErrors(failure.fields ?? { form: failure.serverMessage ?? '' });
      else store.report(failure);
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, sent, errors, send };
}

class UploadFailed extends Error {}
