import type { ServerRoute } from '@hapi/hapi';
import { servePage, wantsHtml } from '../status/status-page.js';

/**
 * GET /api (and GET /, where ARK 3.0 answers it): a constant greeting in ARK's shape, which
 * clients use to see that the API is up without touching the chain. With the status page on,
 * a browser asking `/` for HTML gets the page instead; every other client still gets the JSON.
 */
export function rootRoutes(statusPage = false): ServerRoute[] {
  return ['/', '/api'].map((path) => ({
    method: 'GET',
    path,
    options: {
      description: 'A greeting: the API is up',
      tags: ['api'],
      handler: (request, h) =>
        statusPage && path === '/' && wantsHtml(request) ? servePage(h) : { data: 'Hello World!' },
    },
  }));
}
