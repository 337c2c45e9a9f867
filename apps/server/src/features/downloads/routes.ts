import { downloadFilesRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import { type DownloadsOptions, getDownloadFilesView } from './service.js';

export function downloadRoutes(app: FastifyInstance, deps: AppDeps): void {
  const options: DownloadsOptions = {
    features: deps.views.features,
    maxResults: deps.config.downloads.maxResults,
  };

  // The page and its Refresh: the list comes with the view.
  serve(app, downloadFilesRoute, async (_input, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getDownloadFilesView(deps.db, requireActor(request), options),
    ),
  );
}
