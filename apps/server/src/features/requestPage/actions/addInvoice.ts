import {
  AMOUNT_SUM_WRONG,
  amountsAddUp,
  describeTags,
  isCurrency,
  normalizeUrl,
  REQUEST_TAGS,
  validateTags,
} from '@dossier/core';
import { z } from 'zod';
import { recordEvent } from '../../../audit/events.js';
import { fieldsInvalid } from '../../../http/errors.js';
import { insertInvoice } from '../../invoices/index.js';
import { touchRequest } from '../../requests/index.js';
import { takeRequestFile } from '../../results/index.js';
import { publishRequestWebhook } from '../../webhooks/index.js';
import { offerForOpenRequest, requestFileInput } from './addResult.js';
import { defineRequestAction } from './context.js';

// addInvoice (request actions): a file, uploaded or chosen from the correspondence, the
// invoice tags, and optionally the amounts already known (minor units), a notice and, when the
// invoice comes from another system (the public API), the link to its entry there.

const minor = z.number().int('Enter whole cents.').min(0).max(1e13).nullish();

const body = z.object({
  file: requestFileInput,
  tags: z.record(z.string().max(100), z.string().max(200)).default({}),
  notice: z.string().max(10_000).nullish(),
  amountExclusiveTax: minor,
  tax: minor,
  amount: minor,
  currency: z.string().max(3).nullish(),
  foreignReference: z.object({ url: z.string().max(2000), label: z.string().max(200).nullish() }).nullish(),
});

type Body = z.infer<typeof body>;

function amountErrors(input: Body): Record<string, string> {
  const errors: Record<string, string> = {};
  if (input.currency && !isCurrency(input.currency))
    errors.currency = 'Choose one of the currencies offered.';
  const { amount, amountExclusiveTax } = input;
  if (!amountsAddUp(input)) errors.amount = AMOUNT_SUM_WRONG;
  if ((amount != null || amountExclusiveTax != null) && !input.currency)
    errors.currency = 'Currency is required with an amount.';
  if (input.foreignReference && !normalizeUrl(input.foreignReference.url, { httpsOnly: true }))
    errors['foreignReference.url'] = 'Enter a valid https URL.';
  return errors;
}

/** The link to the invoice's entry in another system: https only, credentials stripped. */
function foreignReferenceOf(input: Body): { url: string; label: string | null } | null {
  if (!input.foreignReference) return null;
  const url = normalizeUrl(input.foreignReference.url, { httpsOnly: true });
  return { url, label: input.foreignReference.label?.trim() || null };
}

export const addInvoice = defineRequestAction({
  name: 'addInvoice',
  body,
  offer: offerForOpenRequest,
  async run(trx, { deps, actor, request }, input) {
    const errors = { ...validateTags(REQUEST_TAGS.invoice, input.tags), ...amountErrors(input) };
    if (Object.keys(errors).length > 0) throw fieldsInvalid(errors);
    const n = request.request_number;
    await takeRequestFile(deps.files, trx, actor, n, input.file.key, 'invoice');
    const invoiceId = await insertInvoice(trx, {
      requestNumber: n,
      fileKey: input.file.key,
      tags: input.tags,
      notice: input.notice?.trim() || null,
      amount: input.amount ?? null,
      amountExclusiveTax: input.amountExclusiveTax ?? null,
      tax: input.tax ?? null,
      currency: input.currency || null,
      foreignReference: foreignReferenceOf(input),
      createdBy: actor.id,
    });
    await recordEvent(trx, {
      type: 'request.invoiceAdded',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: {
        summary: `Added an invoice (${describeTags(REQUEST_TAGS.invoice, input.tags)}).`,
        invoiceId,
      },
    });
    await touchRequest(trx, n, actor.id);
    await publishRequestWebhook(trx, deps, request, 'invoiceAdded', { requestNumber: n, invoiceId });
    return { invoiceId };
  },
});
