import type { ServerRoute } from '@hapi/hapi';

/**
 * GET /api (and GET /, where ARK 3.0 answers it): a constant greeting in ARK's shape, which
 * clients use to see that the API is up without touching the chain.
 */
export function rootRoutes(): ServerRoute[] {
  return ['/', '/api'].map((path) => ({
    method: 'GET',
    path,
    options: {
      description: 'A greeting: the API is up',
      tags: ['api'],
      handler: () => ({ data: 'Hello World!' }),
    },
  }));
}
