import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { requireActor } from '../auth/index.js';
import { type DownloadsOptions, getDownloadFilesView } from './service.js';

export function downloadRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const options: DownloadsOptions = {
    features: deps.views.features,
    maxResults: deps.config.downloads.maxResults,
  };

  // The page and its Refresh: the list comes with the view.
  r.get('/results/download-files', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getDownloadFilesView(deps.db, requireActor(request), options),
    ),
  );
}
