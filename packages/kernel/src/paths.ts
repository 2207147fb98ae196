import envPaths from 'env-paths';
import { resolve, join } from 'node:path';

/** Where a node keeps its configuration, its data and its log file, per network. */
export interface NodePaths {
  readonly config: string;
  readonly data: string;
  readonly log: string;
}

export interface PathOverrides {
  readonly config?: string | undefined;
  readonly data?: string | undefined;
}

/**
 * Per-user defaults (XDG on Linux: ~/.config/lni/<network>, ~/.local/share/lni/<network>),
 * overridden by flags first, then by CORE_PATH_CONFIG / CORE_PATH_DATA.
 */
export function resolvePaths(
  network: string,
  env: Readonly<Record<string, string | undefined>>,
  overrides: PathOverrides = {},
): NodePaths {
  const defaults = envPaths('lni', { suffix: '' });
  const config = resolve(
    overrides.config ?? env.CORE_PATH_CONFIG ?? join(defaults.config, network),
  );
  const data = resolve(overrides.data ?? env.CORE_PATH_DATA ?? join(defaults.data, network));
  return { config, data, log: join(data, 'logs', 'node.log') };
}
