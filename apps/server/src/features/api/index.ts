import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import { apiDocsPageRoute, openApiDocumentRoute } from './contracts.js';
import { renderDocsPage } from './docsPage.js';
import { type ApiEndpoint, registerEndpoints } from './endpoints.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.js';
import { fileEndpoints } from './routes/files.js';
import { invoiceEndpoints } from './routes/invoices.js';
import { payeeEndpoints } from './routes/payees.js';
import { requestEndpoints } from './routes/requests.js';
import { resultEndpoints } from './routes/results.js';
import { userEndpoints } from './routes/users.js';

// The public REST API under /api/v1: bearer-token calls of API keys (see auth.ts), its OpenAPI
// document and a readable page of it. No session cookie is read and no CSRF header needed here
// (see http/session.ts and http/csrf.ts).

export const API_ENDPOINTS: ApiEndpoint[] = [
  ...requestEndpoints,
  ...resultEndpoints,
  ...invoiceEndpoints,
  ...fileEndpoints,
  ...payeeEndpoints,
  ...userEndpoints,
];

export function apiRoutes(app: FastifyInstance, deps: AppDeps): void {
  registerEndpoints(app, deps, API_ENDPOINTS);

  // Built once per server URL (one, when PUBLIC_URL is set; else per host the server is reached by).
  const documents = new Map<string, OpenApiDocument>();
  const documentOf = (serverUrl: string) => {
    let doc = documents.get(serverUrl);
    if (!doc) {
      doc = buildOpenApiDocument(API_ENDPOINTS, { audience: deps.config.api.audience, serverUrl });
      if (documents.size > 20) documents.clear();
      documents.set(serverUrl, doc);
    }
    return doc;
  };
  const serverUrlOf = (protocol: string, host: string) =>
    (deps.config.publicUrl ?? `${protocol}://${host}`).replace(/\/+$/, '');

  serve(app, openApiDocumentRoute, async (_input, request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return documentOf(serverUrlOf(request.protocol, request.host));
  });
  serve(app, apiDocsPageRoute, async (_input, request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      )
      .send(renderDocsPage(documentOf(serverUrlOf(request.protocol, request.host)))),
  );
  // Unknown API paths answer JSON, never the web app's page.
  app.all('/api/v1/*', async (request) => {
    throw notFound(`Invalid URL: ${request.url.split('?')[0]}`);
  });
}
