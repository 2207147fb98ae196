import type { Application } from '../application.js';
import type { Logger } from '../logging/logger.js';
import { AdminServer } from './admin-server.js';
import { kernelOperations } from './kernel-operations.js';
import { LogRing } from './log-ring.js';

/**
 * Keeps the node's recent log records in memory for the admin's `log` and `status`, from the
 * start (before any plugin logs). Called on the root logger before the node is prepared.
 */
export function attachLogRing(logger: Logger, capacity?: number): LogRing {
  const ring = new LogRing(capacity);
  // The node's own level: the ring holds what an operator would have seen on stdout.
  logger.addStream({
    type: 'raw',
    level: logger.level(),
    stream: ring as unknown as NodeJS.WritableStream,
  });
  return ring;
}

export interface NodeAdminOptions {
  readonly ring: LogRing;
  /** Starts the node's clean stop, as SIGTERM does. */
  readonly stop: () => void;
  /** Loopback HTTP port for the admin besides the socket (CORE_ADMIN_HTTP_PORT). */
  readonly httpPort?: number;
}

/**
 * Starts the admin server of a booted node with the kernel's operations (`status`, `stop`,
 * `log`) beside those the plugins contributed; resolves with the server, to stop at shutdown.
 */
export async function startNodeAdmin(
  app: Application,
  options: NodeAdminOptions,
): Promise<AdminServer> {
  const { adminOperations, statusSections, paths, mode, network } = app.container.cradle;
  adminOperations.add(
    'kernel',
    ...kernelOperations({
      sections: statusSections,
      ring: options.ring,
      logger: app.logger,
      node: {
        network,
        mode,
        plugins: app.plugins.map(({ plugin }) => plugin.name),
        data: paths.data,
      },
      stop: options.stop,
    }),
  );
  const server = new AdminServer({
    dataDirectory: paths.data,
    operations: adminOperations,
    logger: app.logger,
    ...(options.httpPort !== undefined && { httpPort: options.httpPort }),
  });
  await server.start();
  return server;
}
