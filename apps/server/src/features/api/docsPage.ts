import type { OpenApiDocument } from './openapi.js';

// GET /api/v1/docs: the OpenAPI document as a plain page (no scripts, no external assets), for people
// who want to read what the API offers before reaching for a client generator.

const html = (text: unknown) =>
  String(text ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Escaped text with `code` spans, as the document's descriptions use them. */
const prose = (text: unknown) =>
  html(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replaceAll('\n\n', '<br>');

interface Operation {
  summary: string;
  description: string;
  'x-api-scope': string;
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: { 'application/json': { schema: unknown } } };
  responses: Record<string, { description: string }>;
}

function operationHtml(method: string, path: string, op: Operation): string {
  const params = op.parameters.length
    ? `<p><strong>Parameters:</strong> ${op.parameters
        .map((p) => `<code>${html(p.name)}</code> (${html(p.in)}${p.required ? ', required' : ''})`)
        .join(', ')}</p>`
    : '';
  const body = op.requestBody
    ? `<details><summary>Request body (JSON Schema)</summary><pre>${html(
        JSON.stringify(op.requestBody.content['application/json'].schema, null, 2),
      )}</pre></details>`
    : '';
  const responses = Object.entries(op.responses)
    .map(([status, r]) => `<li><code>${html(status)}</code> ${html(r.description)}</li>`)
    .join('');
  return `<section>
<h3><span class="method">${html(method.toUpperCase())}</span> <code>${html(path)}</code></h3>
<p>${html(op.summary)} — API scope <code>${html(op['x-api-scope'])}</code></p>
<p>${prose(op.description)}</p>
${params}${body}<ul>${responses}</ul>
</section>`;
}

export function renderDocsPage(doc: OpenApiDocument): string {
  const scheme = doc.components.securitySchemes.apiKeyJwt;
  const sections = Object.entries(doc.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => operationHtml(method, path, op as Operation)),
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${html(doc.info.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1b1e}
code,pre{font-family:ui-monospace,monospace;background:#f1f3f5;border-radius:4px;padding:0 .25rem}
pre{padding:.75rem;overflow:auto}section{border-top:1px solid #dee2e6;padding:.5rem 0}
.method{display:inline-block;min-width:3.5rem;color:#fff;background:#1c7ed6;border-radius:4px;padding:0 .4rem;font-size:.9rem}
</style></head><body>
<h1>${html(doc.info.title)} <small>${html(doc.info.version)}</small></h1>
<p>${prose(doc.info.description)}</p>
<h2>Authentication</h2><p>${prose(scheme.description)}</p>
<p>Audience: <code>${html(doc['x-audience'])}</code>. Machine-readable document:
<a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
<h2>Endpoints</h2>
${sections}
</body></html>`;
}
