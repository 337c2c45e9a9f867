import { z } from 'zod';
import { ENTRY_TYPES } from '../configuration/enums.js';
import type { ChildSummary, EntryChoices, EntryState } from '../configuration/views.js';
import type { RichTextDoc } from '../richText.js';
import { defineRoute } from './route.js';
import { defineView, typed } from './view.js';

// The configuration screens: the list of configurations and the page of one entry.

export const configurationListViewSchema = defineView('configurationList', {
  canEdit: z.boolean(),
  configurations: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      scopePath: z.string(),
      order: z.number(),
      isDisabled: z.boolean(),
      isInherited: z.boolean(),
      inherits: z.array(z.object({ id: z.string(), name: z.string(), scopePath: z.string() })),
    }),
  ),
});
export type ConfigurationListView = z.infer<typeof configurationListViewSchema>;

export const entryViewSchema = defineView('configurationEntry', {
  configuration: z.object({ id: z.string(), scopePath: z.string(), name: z.string() }),
  entry: typed<EntryState>(),
  isNew: z.boolean(),
  canEdit: z.boolean(),
  canRevertToInherited: z.boolean(),
  /** The entries above this one, from the root down (for the way back). */
  path: z.array(z.object({ id: z.string(), name: z.string() })),
  children: z.array(typed<ChildSummary>()),
  childTypes: z.array(z.enum(ENTRY_TYPES)),
  choices: typed<EntryChoices>(),
});
export type EntryView = z.infer<typeof entryViewSchema>;

// ---- Routes of the configuration screens (apps/server/src/features/configuration and the
// template preview and webhook log shown in its editors).

const entryParams = z.object({ c: z.string().min(1).max(100), id: z.string().min(1).max(300) });

/** GET /admin/configuration: the list of configurations. */
export const configurationListRoute = defineRoute({
  method: 'GET',
  path: '/admin/configuration',
  answer: configurationListViewSchema,
});

/** GET /admin/configuration/new: checks the scope path and answers the id the new one will get. */
export const newConfigurationRoute = defineRoute({
  method: 'GET',
  path: '/admin/configuration/new',
  query: z.object({ scopePath: z.string().max(500).default('') }),
  answer: z.object({ id: z.string(), name: z.string(), scopePath: z.string() }),
});

/** GET …/edit/{c}/{id}: the page of an entry; a configuration not stored yet shows new. */
export const configurationEntryRoute = defineRoute({
  method: 'GET',
  path: '/admin/configuration/edit/:c/:id',
  params: entryParams,
  query: z.object({
    name: z.string().max(200).optional(),
    scopePath: z.string().max(500).optional(),
    type: z.enum(ENTRY_TYPES).optional(),
  }),
  answer: entryViewSchema,
});

/** GET …/edit/{c}/{id}/new: checks a child's id and name and answers its full id. */
export const newChildEntryRoute = defineRoute({
  method: 'GET',
  path: '/admin/configuration/edit/:c/:id/new',
  params: entryParams,
  query: z.object({
    childId: z.string().max(100).optional(),
    name: z.string().max(200).optional(),
    type: z.string().max(50).optional(),
  }),
  answer: z.object({ id: z.string(), name: z.string(), type: z.enum(ENTRY_TYPES) }),
});

/**
 * The body of saving an entry: its common fields; the data is checked by the rules of its type
 * (validateEntry, run by the server once the type is known from the stored entry).
 */
export const saveEntryBodySchema = z.object({
  name: z.string().max(200),
  order: z.number().int().min(-1_000_000).max(1_000_000),
  isDefault: z.boolean().default(false),
  isDisabled: z.boolean().default(false),
  type: z.enum(ENTRY_TYPES).optional(),
  data: z.unknown(),
  version: z.number().int().nullable(),
  isInherited: z.boolean().optional(),
  scopePath: z.string().max(500).optional(),
});

/** POST …/edit/{c}/{id}: saves the entry (an override when it was inherited); the refreshed page. */
export const saveEntryRoute = defineRoute({
  method: 'POST',
  path: '/admin/configuration/edit/:c/:id',
  params: entryParams,
  body: saveEntryBodySchema,
  answer: entryViewSchema,
});

/** POST …/edit/{c}/{id}/revert: removes this configuration's override of an inherited entry. */
export const revertEntryRoute = defineRoute({
  method: 'POST',
  path: '/admin/configuration/edit/:c/:id/revert',
  params: entryParams,
  answer: entryViewSchema,
});

/** POST …/edit/{c}/{id}/delete: the entry, or with the root entry's id the configuration. */
export const deleteEntryRoute = defineRoute({
  method: 'POST',
  path: '/admin/configuration/edit/:c/:id/delete',
  params: entryParams,
  /** Where to go next: the parent entry's page, or the configuration list. */
  answer: z.object({ next: z.string() }),
});

/** The smart form to preview: the one on the screen (formData), else the saved one. */
export const smartFormPreviewInputSchema = z.object({
  formId: z.string().min(1).max(300),
  configurationId: z.string().max(100).default('root'),
  formData: z.string().max(1_000_000).optional(),
  /** The name on the screen, which may not be saved yet. */
  name: z.string().max(200).optional(),
  previewPdf: z.enum(['true', 'false']).default('false'),
});

// The smart form preview answers a PDF, not JSON: its answer is not checked.
/** GET /files/SMARTFORM: the PDF of a saved smart form (or one short enough for the address). */
export const smartFormPreviewRoute = defineRoute({
  method: 'GET',
  path: '/files/SMARTFORM',
  query: smartFormPreviewInputSchema,
  answer: z.unknown(),
});

/** POST /files/SMARTFORM: the editor posts the form on the screen as a plain form to a new tab. */
export const smartFormPreviewPostRoute = defineRoute({
  method: 'POST',
  path: '/files/SMARTFORM',
  body: smartFormPreviewInputSchema,
  answer: z.unknown(),
});

/** GET /files.pdf.fields/{key}: the form fields of an uploaded PDF (static PDF editor). */
export const pdfFieldsRoute = defineRoute({
  method: 'GET',
  path: '/files.pdf.fields/:key',
  params: z.object({ key: z.string().regex(/^[\w-]{10,64}$/) }),
  answer: z.object({ fields: z.array(z.object({ name: z.string(), type: z.string() })) }),
});

/**
 * POST …/edit/{c}/template-preview: a template as it reads for the newest request the caller may
 * see in the configuration's scope; requestNumber null (and the rest null) when there is none.
 */
export const templatePreviewRoute = defineRoute({
  method: 'POST',
  path: '/admin/configuration/edit/:c/template-preview',
  params: z.object({ c: z.string().max(100) }),
  body: z.object({
    subject: z.string().max(2000).optional(),
    /** The template's body as on the screen (rich text), which may not be saved yet. */
    body: z.unknown().optional(),
  }),
  answer: z.object({
    requestNumber: z.string().nullable(),
    subject: z.string().nullable(),
    body: typed<RichTextDoc>().nullable(),
  }),
});

/** An attempt to deliver a webhook event. */
export const webhookAttemptSchema = z.object({
  attempt: z.number(),
  attemptedAt: z.string(),
  durationMs: z.number().nullable(),
  responseStatus: z.number().nullable(),
  responseExcerpt: z.string().nullable(),
  error: z.string().nullable(),
});

/** A delivery of a webhook event, with all its attempts. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventType: z.string(),
  url: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  responseStatus: z.number().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  attemptLog: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** GET …/edit/{configuration}/{id}/deliveries: the delivery log of a webhook entry. */
export const webhookDeliveriesRoute = defineRoute({
  method: 'GET',
  path: '/admin/configuration/edit/:configuration/:id/deliveries',
  params: z.object({ configuration: z.string().max(100), id: z.string().max(200) }),
  answer: z.object({ deliveries: z.array(webhookDeliverySchema) }),
});
