import type { ServerRoute } from '@hapi/hapi';
import { runHealthChecks, type HealthCheck } from '../health/health-check.js';

/** How long one check may take: below the Docker HEALTHCHECK's and a load balancer's timeouts. */
const CHECK_TIMEOUT_MS = 3_000;

/** GET /health: 200 when every check passes, 503 naming the failing ones otherwise. */
export function healthRoutes(checks: () => readonly HealthCheck[]): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/health',
      options: {
        description:
          'Whether the database answers, the node is synced and a forger’s relay answers: 200, or 503 naming what fails',
        tags: ['api', 'node'],
        handler: async (_request, h) => {
          const report = await runHealthChecks(checks(), CHECK_TIMEOUT_MS);
          return h
            .response(report)
            .code(report.status === 'ok' ? 200 : 503)
            .header('Cache-Control', 'no-store');
        },
      },
    },
  ];
}
