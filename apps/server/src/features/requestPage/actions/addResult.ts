import { describeTags, REQUEST_TAGS, validateTags } from '@dossier/core';
import { z } from 'zod';
import { recordEvent } from '../../../audit/events.js';
import { fieldsInvalid } from '../../../http/errors.js';
import { getRequestSettings } from '../../configuration/index.js';
import { canHandleRequest, touchRequest } from '../../requests/index.js';
import { insertResult, takeRequestFile } from '../../results/index.js';
import { publishRequestWebhook } from '../../webhooks/index.js';
import { defineRequestAction, type RequestActionContext } from './context.js';

// addResult (request actions): a file, uploaded or chosen from the correspondence, and the
// result tags. When the request settings switch quality assurance off, the result is born with QA
// skipped, so it is available at once.

export const requestFileInput = z.object(
  { key: z.string().min(1, 'A file is required.').max(100), name: z.string().max(300).optional() },
  { error: 'A file is required.' },
);

const body = z.object({
  file: requestFileInput,
  tags: z.record(z.string().max(100), z.string().max(200)).default({}),
});

export function offerForOpenRequest(ctx: RequestActionContext) {
  if (!canHandleRequest(ctx.actor, ctx.request)) return 'forbidden' as const;
  if (ctx.request.status === 'closed') return { conflict: 'The request is closed.' };
  return 'offered' as const;
}

export const addResult = defineRequestAction({
  name: 'addResult',
  body,
  offer: offerForOpenRequest,
  async run(trx, { deps, actor, request }, input) {
    const errors = validateTags(REQUEST_TAGS.result, input.tags);
    if (Object.keys(errors).length > 0) throw fieldsInvalid(errors);
    const n = request.request_number;
    await takeRequestFile(deps.files, trx, actor, n, input.file.key, 'result');
    const settings = await getRequestSettings(trx, request.scope);
    const skipped = settings?.disableResultQualityAssurance === true;
    const resultId = await insertResult(trx, {
      requestNumber: n,
      fileKey: input.file.key,
      tags: input.tags,
      createdBy: actor.id,
      qualityAssuranceSkipped: skipped,
    });
    const tags = describeTags(REQUEST_TAGS.result, input.tags);
    await recordEvent(trx, {
      type: 'request.resultAdded',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: {
        summary: `Added a result (${tags})${skipped ? '; quality assurance is skipped' : ''}.`,
        resultId,
      },
    });
    await touchRequest(trx, n, actor.id);
    // Born without QA, the result is as good as quality-assured: the other system hears so now.
    if (skipped)
      await publishRequestWebhook(trx, deps, request, 'resultQualityAssured', {
        requestNumber: n,
        resultId,
        itemTypes: [],
        qualityAssuranceSkipped: true,
      });
    return { resultId };
  },
});
