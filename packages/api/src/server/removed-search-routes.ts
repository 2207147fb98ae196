import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import { querySchemaOf } from '../query/sparse-query.js';

const INDEX_PATH = /^\/api\/([a-z]+)$/;

/**
 * 3.0 removed `POST /api/{resource}/search`: searching is the index route's query string. A
 * client still calling it gets a 404 that says so, for every index route (one that takes
 * `orderBy`), including those other plugins contribute.
 */
export function removedSearchRoutes(routes: readonly ServerRoute[]): ServerRoute[] {
  return routes.filter(isIndexRoute).map((route) => {
    const index = route.path;
    return {
      method: 'POST',
      path: `${index}/search`,
      options: {
        description: `Removed in 3.0: answers 404 saying to use GET ${index} with query parameters`,
        tags: ['api', 'removed'],
        handler: () => {
          throw Boom.notFound(
            `POST ${index}/search was removed in 3.0: use GET ${index} with query parameters ` +
              `(any field as a filter, orderBy, page, limit)`,
          );
        },
      },
    };
  });
}

function isIndexRoute(route: ServerRoute): boolean {
  if (route.method !== 'GET' || !INDEX_PATH.test(route.path)) return false;
  const options = typeof route.options === 'function' ? undefined : route.options;
  const query = querySchemaOf(options?.validate?.query);
  if (query === undefined) return false;
  // `extract` rather than `describe`: describing every index route's schema cost the start
  // ~0.1 s; `extract` throws for a key the schema does not declare.
  try {
    query.extract('orderBy');
    return true;
  } catch {
    return false;
  }
}
