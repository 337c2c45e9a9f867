import {
  type RenderOptions,
  type RichTextDoc,
  type RichTextNode,
  renderRichTextTemplateWithLinks,
  renderTemplate,
  richTextFromParagraphs,
  sanitizeRichText,
  type TemplateUsage,
  templateHasSubject,
  WORKFLOW_TASK_TYPES,
} from '@dossier/core';
import type { AppAddress } from '../../config.js';
import type { DbOrTrx } from '../../db/database.js';
import { richTextToHtml, richTextToText, withAbsoluteLinks } from '../../mail/richText.js';
import type { Actor } from '../auth/index.js';
import { getEffectiveTemplate } from '../configuration/index.js';
import type { RequestRow } from '../requests/index.js';
import { loadLetterContext } from '../requests/index.js';
import { taskTypeName } from '../tasks/index.js';

// A workflow mail is the effective template of its usage for the request's scope, rendered over the
// request's data (the same data the issued letters use) plus the task or result it is about. Where
// no template is in effect a built-in text of the same meaning is used, so a rule never goes silent.

export interface Wording {
  /** Used for usages whose templates have no subject, and when a template leaves it empty. */
  subject: string;
  /** Paragraphs, with placeholders, used when no template of the usage is in effect. */
  body: string[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export const OPTIONS: RenderOptions = {
  locale: 'en-AU',
  enums: { workflowTaskType: Object.fromEntries(WORKFLOW_TASK_TYPES.map((t) => [t, taskTypeName(t)])) },
};

// The letter data names a user (the one who issues a letter); a workflow mail has none of its own.
const NOBODY: Actor = {
  id: '',
  name: '',
  email: '',
  locale: 'en-au',
  countryCode: 'AU',
  scope: '/',
  roles: [],
  permissions: [],
  sessionId: '',
};

/** The template data of a request; `extra` adds task, result or user. */
export async function requestMailData(
  db: DbOrTrx,
  config: AppAddress,
  request: RequestRow,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const { templateData } = await loadLetterContext(db, config, NOBODY, request);
  const { user: _none, ...rest } = templateData;
  // The recipient's link and passcode are the recipient's, in its letter only: no workflow mail
  // (to the sender side, to staff) carries them, not even as the markers of the issue panel.
  const { recipientAccess: _recipients, ...requestData } = (rest.request ?? {}) as Record<string, unknown>;
  return { ...rest, request: requestData, ...extra };
}

export async function renderMail(
  db: DbOrTrx,
  scope: string,
  usage: TemplateUsage,
  data: Record<string, unknown>,
  wording: Wording,
  baseUrl: string,
): Promise<RenderedMail> {
  const template = await getEffectiveTemplate(db, scope, usage);
  const configured = template ? sanitizeRichText(template.data.body) : undefined;
  const source = configured?.content.length ? configured : richTextFromParagraphs(...wording.body);
  const rendered = sanitizeRichText(renderRichTextTemplateWithLinks(source, data, OPTIONS));
  const body = withRequestLink(withAbsoluteLinks(rendered, baseUrl), data);
  const subjectSource = (templateHasSubject(usage) && template?.data.subject?.trim()) || wording.subject;
  return {
    subject: renderTemplate(subjectSource, data, OPTIONS).replace(/\s+/g, ' ').trim(),
    text: richTextToText(body),
    html: richTextToHtml(body),
  };
}

function linksOf(node: RichTextNode): string[] {
  return [
    ...(node.marks ?? []).flatMap((m) => (m.type === 'link' ? [m.attrs.href] : [])),
    ...(node.content ?? []).flatMap(linksOf),
  ];
}

/**
 * Every mail about a request links to it: a template that names no link to the request (or to
 * something of it, such as a result) gets a last paragraph that does.
 */
export function withRequestLink(doc: RichTextDoc, data: Record<string, unknown>): RichTextDoc {
  const request = data.request as { url?: unknown; requestNumber?: unknown } | undefined;
  if (typeof request?.url !== 'string' || !request.url) return doc;
  const url = request.url;
  if (doc.content.flatMap(linksOf).some((href) => href === url || href.startsWith(`${url}/`))) return doc;
  const paragraph: RichTextNode = {
    type: 'paragraph',
    content: [
      {
        type: 'text',
        text: `Open request ${String(request.requestNumber ?? '')}`.trim(),
        marks: [{ type: 'link', attrs: { href: url } }],
      },
    ],
  };
  return { ...doc, content: [...doc.content, paragraph] };
}
