import type { ServerRoute } from '@hapi/hapi';
import type { HealthChecks } from '@lni/kernel';

/** How long one check may take: below the Docker HEALTHCHECK's and a load balancer's timeouts. */
const CHECK_TIMEOUT_MS = 3_000;

/**
 * GET /health: 200 when every check passes, 503 naming the failing ones otherwise. The checks
 * are the kernel's registry: each plugin adds one for what it owns.
 */
export function healthRoutes(checks: HealthChecks): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/health',
      options: {
        description:
          'Whether the database answers, the node is synced and a forger’s relay answers: 200, or 503 naming what fails',
        tags: ['api', 'node'],
        handler: async (_request, h) => {
          const report = await checks.run(CHECK_TIMEOUT_MS);
          return h
            .response(report)
            .code(report.status === 'ok' ? 200 : 503)
            .header('Cache-Control', 'no-store');
        },
      },
    },
  ];
}
