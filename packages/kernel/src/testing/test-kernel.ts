import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Application } from '../application.js';
import { checkPluginConfig } from '../app/config-check.js';
import { planFromPlugins, type PluginChoice } from '../app/plan.js';
import type { LogLevel } from '../logging/logger.js';
import type { NodePaths } from '../paths.js';
import type { Cradle, Environment, RunMode } from '../plugin.js';
import { captureLogs } from './captured-logs.js';

export interface TestKernelOptions {
  readonly plugins: readonly PluginChoice[];
  readonly mode?: RunMode;
  readonly network?: string;
  readonly env?: Environment;
  /** Reuse directories (to test a restart); by default fresh temporary ones are made and removed. */
  readonly paths?: NodePaths;
  /** Records at this level and above are printed; all are kept in `logs` either way. */
  readonly printLevel?: LogLevel;
}

export interface TestKernel {
  readonly app: Application;
  readonly cradle: Cradle;
  readonly paths: NodePaths;
  /** Every log record written so far, for assertions on what the node said. */
  readonly logs: readonly Record<string, unknown>[];
  /** Disposes the plugins, then removes the temporary directories it made. */
  stop(): Promise<void>;
}

/**
 * Starts a kernel in-process with the given plugin objects and options, through the same
 * planning and lifecycle as `kernel start`. For this repository's tests and for plugin authors.
 */
export async function startTestKernel(options: TestKernelOptions): Promise<TestKernel> {
  const mode = options.mode ?? 'core';
  const network = options.network ?? 'testnet';
  // Planned first: a plugin refused here leaves no directory behind.
  const plugins = planFromPlugins(options.plugins, mode, options.env ?? {});
  const ownDirectory = options.paths ? undefined : await mkdtemp(join(tmpdir(), 'lni-test-'));
  const paths = options.paths ?? {
    config: join(ownDirectory as string, 'config'),
    data: join(ownDirectory as string, 'data'),
    log: join(ownDirectory as string, 'data', 'logs', 'node.log'),
  };
  const { logger, records } = captureLogs(options.printLevel ?? 'fatal');
  try {
    const app = new Application({ mode, network, paths, logger }, plugins);
    await checkPluginConfig(plugins, { paths, mode, network });
    await app.start();
    return testKernel(app, paths, records, ownDirectory);
  } catch (error) {
    if (ownDirectory) await rm(ownDirectory, { recursive: true, force: true });
    throw error;
  }
}

/** The started kernel; `stop` disposes it and removes `ownDirectory`, if the test kernel made it. */
function testKernel(
  app: Application,
  paths: NodePaths,
  logs: readonly Record<string, unknown>[],
  ownDirectory: string | undefined,
): TestKernel {
  return {
    app,
    cradle: app.container.cradle,
    paths,
    logs,
    async stop() {
      const failures = await app.dispose('test finished');
      if (ownDirectory) await rm(ownDirectory, { recursive: true, force: true });
      if (failures.length > 0) {
        throw new AggregateError(
          failures.map((failure) => failure.error),
          `plugins failed to dispose: ${failures.map((failure) => failure.plugin).join(', ')}`,
        );
      }
    },
  };
}
