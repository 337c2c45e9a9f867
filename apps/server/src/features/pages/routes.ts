import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.js';
import { requireSignedIn, sendView } from '../../http/views.js';
import { DEFAULT_PAGE_BODIES } from './content.js';

export function pageRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/', async (request, reply) => {
    if (!requireSignedIn(request, reply)) return reply;
    return sendView(request, reply, deps.views, { $type: 'home', title: 'Home', name: request.actor?.name });
  });
  // Contact and help are readable without signing in: a locked-out user needs them most.
  app.get('/contact', async (request, reply) =>
    sendView(request, reply, deps.views, {
      $type: 'richTextPage',
      title: 'Contact Us',
      body: DEFAULT_PAGE_BODIES.contact,
    }),
  );
  app.get('/help', async (request, reply) =>
    sendView(request, reply, deps.views, {
      $type: 'richTextPage',
      title: 'Help',
      body: DEFAULT_PAGE_BODIES.help,
    }),
  );
}
