import { describeError } from '../errors.js';
import type { NodePaths } from '../paths.js';
import type { RunMode } from '../plugin.js';
import type { PluginInstance } from './plan.js';
import { throwIfProblems } from './plugin-options.js';

/**
 * Runs every planned plugin's `checkConfig` and reports all their problems at once, each with
 * mode and plugin, as one ConfigError: the last configuration check before anything is written.
 */
export async function checkPluginConfig(
  plugins: readonly PluginInstance[],
  node: { readonly paths: NodePaths; readonly mode: RunMode; readonly network: string },
): Promise<void> {
  const problems: string[] = [];
  for (const { plugin, options } of plugins) {
    if (!plugin.checkConfig) continue;
    const where = `mode '${node.mode}', plugin '${plugin.name}'`;
    try {
      const found = await plugin.checkConfig({ options, ...node });
      problems.push(...found.map((problem) => `${where}: ${problem}`));
    } catch (error) {
      problems.push(`${where}: the configuration check failed: ${describeError(error)}`);
    }
  }
  throwIfProblems(problems);
}
