import type { Readable } from 'node:stream';
import {
  parseEntryData,
  pdfFieldsRoute,
  renderRichTextTemplate,
  type smartFormPreviewInputSchema,
  smartFormPreviewPostRoute,
  smartFormPreviewRoute,
  validateEntry,
} from '@dossier/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import type { z } from 'zod';
import { openFile } from '../../../files/service.js';
import type { AppDeps } from '../../../http/deps.js';
import { badRequest, notFound } from '../../../http/errors.js';
import { serve } from '../../../http/serve.js';
import type { Actor } from '../../auth/index.js';
import { permissionFirst } from '../../auth/index.js';
import { getEffectiveEntries, getEffectiveTemplate, getRequestSettings } from '../effective.js';
import { assertCanView, requireConfigurationViewer } from '../policy.js';
import * as repo from '../repository.js';
import { loadChain } from '../views.js';
import { plainLines, renderSmartFormPdf } from './smartFormPdf.js';

async function readAll(stream: Readable, limit = 20 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) throw badRequest('The file is too large to read.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function fileBytes(
  deps: AppDeps,
  actor: Actor,
  key: string | undefined,
): Promise<Uint8Array | undefined> {
  if (!key) return undefined;
  try {
    const { stream } = await openFile(deps.files, actor, key);
    return await readAll(stream);
  } catch {
    return undefined;
  }
}

type PreviewInput = z.output<typeof smartFormPreviewInputSchema>;

/** The PDF of a smart form: the form sent (unsaved) or the one saved, titled with its name. */
async function sendPreview(deps: AppDeps, actor: Actor, input: PreviewInput, reply: FastifyReply) {
  const { formId, configurationId, formData, previewPdf } = input;
  const configuration = await repo.findConfiguration(deps.db, configurationId);
  if (!configuration) throw notFound(`There is no configuration ${configurationId}.`);
  assertCanView(actor, configuration.scopePath);
  const stored = (await loadChain(deps.db, configuration))
    .flatMap((c) => c.entries)
    .find((e) => e.id === formId && e.type === 'requestItemTypeEntry');
  let source: unknown;
  if (formData !== undefined) {
    try {
      source = JSON.parse(formData);
    } catch {
      throw badRequest('formData is not JSON.', { formData: 'Not JSON.' });
    }
  } else {
    if (!stored) throw notFound(`There is no request item type ${formId}.`);
    source = stored.data;
  }
  // The entry's name, never its id: the one typed, else the saved one.
  const title = input.name?.trim() || stored?.name || formId;
  const parsed = parseEntryData('requestItemTypeEntry', source);
  if (!parsed)
    throw badRequest('formData is not a request item type.', { formData: 'Not a request item type.' });
  const { data } = validateEntry({
    id: formId.replace(/[^a-zA-Z0-9:]/g, '') || 'form',
    name: title,
    order: 0,
    type: 'requestItemTypeEntry',
    data: parsed,
  });
  const form = data as typeof parsed;
  const scope = configuration.scopePath;
  const settings = await getRequestSettings(deps.db, scope);
  const sample = {
    product: 'Dossier',
    request: {
      requestNumber: `${settings?.requestNumberPrefix || 'DOS'}261122PRV00`,
      applicant: { name: 'Applicant name', dateOfBirth: '1980-01-01' },
      sender: { name: configuration.name, scopePath: scope },
    },
  };
  const render = (doc: unknown) => plainLines(renderRichTextTemplate(doc, sample));
  const header = await getEffectiveTemplate(deps.db, scope, 'smartFormHeader');
  const footer = await getEffectiveTemplate(deps.db, scope, 'smartFormFooter');
  const optionEntries = await getEffectiveEntries(deps.db, scope, 'smartFormOptionEntry');
  const options: Record<string, string[]> = {};
  for (const o of optionEntries) options[o.parentId] = [...(options[o.parentId] ?? []), o.name];
  const logos = (
    await Promise.all([
      fileBytes(deps, actor, settings?.smartFormLogo?.key),
      fileBytes(deps, actor, form.secondarySmartFormLogo?.key),
    ])
  ).filter((b): b is Uint8Array => b !== undefined);
  const pdf = await renderSmartFormPdf({
    title,
    questions: form.smartForm,
    headerLines: [...(header ? render(header.data.body) : []), ...render(form.headerExtrasTemplate)],
    footerLines: footer ? render(footer.data.body) : [],
    logos,
    options,
  });
  const fileName = `${title.replace(/[^\w.-]+/g, '_') || 'smartform'}.pdf`;
  return reply
    .header('content-type', 'application/pdf')
    .header(
      'content-disposition',
      `${previewPdf === 'true' ? 'attachment' : 'inline'}; filename="${fileName}"`,
    )
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(Buffer.from(pdf));
}

/** The smart form preview (GET and POST /files/SMARTFORM) and the field names of a PDF form. */
export function smartFormPreviewRoutes(app: FastifyInstance, deps: AppDeps): void {
  // GET keeps the saved form (or formData in the address, for short forms); the editor posts the
  // form on the screen as a plain form to a new tab, so a form of any length previews as shown.
  serve(
    app,
    smartFormPreviewRoute,
    async ({ query }, request, reply) => sendPreview(deps, requireConfigurationViewer(request), query, reply),
    { onRequest: permissionFirst('configuration:view') },
  );
  serve(
    app,
    smartFormPreviewPostRoute,
    async ({ body }, request, reply) => sendPreview(deps, requireConfigurationViewer(request), body, reply),
    { onRequest: permissionFirst('configuration:view') },
  );

  serve(app, pdfFieldsRoute, async ({ params }, request) => {
    const actor = requireConfigurationViewer(request);
    const { file, stream } = await openFile(deps.files, actor, params.key);
    if (file.content_type !== 'application/pdf') throw badRequest('The file is not a PDF.');
    // A PDF that loads can still break when its form is read (no catalog, a broken AcroForm):
    // either way it is the file that is wrong, not the server.
    let fields: { name: string; type: string }[];
    try {
      const pdf = await PDFDocument.load(await readAll(stream), { ignoreEncryption: true });
      fields = pdf
        .getForm()
        .getFields()
        .map((f) => ({ name: f.getName(), type: f.constructor.name.replace(/^PDF/, '') }));
    } catch {
      throw badRequest('The PDF could not be read.');
    }
    return { fields };
  });
}
