import {
  type IssueRequestTemplate,
  type RichTextDoc,
  renderRichTextTemplate,
  renderTemplate,
  sanitizeRichText,
} from '@dossier/core';
import type { AppDeps } from '../../../http/deps.js';
import { forbidden, notFound } from '../../../http/errors.js';
import type { Actor } from '../../auth/index.js';
import { type EffectiveEntry, getEffectiveEntries } from '../../configuration/index.js';
import { loadVisibleRequest } from '../access.js';
import { canHandleRequest } from '../policy.js';
import type { RequestRow } from '../repository.js';
import { loadLetterContext } from './letterData.js';

// The templates of the issueRequest panel: those with usage issueRequest in the effective
// configuration of the request's scope, and one of them rendered with the request's data. Only
// handlers of the request may read them (they are the handler's letters, not the sender's).

async function loadHandledRequest(deps: AppDeps, actor: Actor, requestNumber: string): Promise<RequestRow> {
  const row = await loadVisibleRequest(deps.db, actor, requestNumber);
  if (!canHandleRequest(actor, row)) throw forbidden();
  return row;
}

async function issueRequestTemplates(deps: AppDeps, scope: string) {
  const entries = await getEffectiveEntries(deps.db, scope, 'templateEntry');
  return entries.filter((e) => e.data.usage === 'issueRequest');
}

export async function listIssueRequestTemplates(
  deps: AppDeps,
  actor: Actor,
  requestNumber: string,
): Promise<IssueRequestTemplate[]> {
  const row = await loadHandledRequest(deps, actor, requestNumber);
  return (await issueRequestTemplates(deps, row.scope)).map((e) => ({
    templateId: e.id,
    name: e.name,
    isDefault: e.isDefault,
  }));
}

export async function renderIssueRequestTemplate(
  deps: AppDeps,
  actor: Actor,
  requestNumber: string,
  templateId: string,
): Promise<{ subject: string; body: RichTextDoc }> {
  const row = await loadHandledRequest(deps, actor, requestNumber);
  const entry = (await issueRequestTemplates(deps, row.scope)).find((e) => e.id === templateId) as
    | EffectiveEntry<'templateEntry'>
    | undefined;
  if (!entry) throw notFound('No such template.');
  const { templateData } = await loadLetterContext(deps.db, deps.config, actor, row);
  const options = { locale: actor.locale === 'en-au' ? 'en-AU' : actor.locale };
  // The specification gives issueRequest templates no subject of their own: the panel's subject then
  // starts from the template's name and the request, never empty.
  const subject =
    entry.data.subject?.trim() ||
    `${entry.name.replace(/\$\{/g, '$ {')}: request \${request.requestNumber} for \${request.applicant.name}`;
  return {
    subject: renderTemplate(subject, templateData, options).trim(),
    body: sanitizeRichText(renderRichTextTemplate(sanitizeRichText(entry.data.body), templateData, options)),
  };
}
