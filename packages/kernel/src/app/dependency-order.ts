import { ConfigError } from '../errors.js';
import type { Plugin } from '../plugin.js';

/**
 * Orders plugins so that each comes after the plugins it depends on; the order of app.json
 * only breaks ties. Missing required dependencies and cycles are reported with their path.
 */
export function orderByDependencies<T extends { readonly plugin: Plugin<object> }>(
  entries: readonly T[],
  mode: string,
): T[] {
  const byName = new Map(entries.map((entry) => [entry.plugin.name, entry]));
  const problems: string[] = [];
  for (const { plugin } of entries) {
    for (const dependency of plugin.dependsOn?.required ?? []) {
      if (!byName.has(dependency)) {
        problems.push(
          `plugin '${plugin.name}' requires '${dependency}', which is not enabled in mode '${mode}'`,
        );
      }
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join('; '));

  const dependencies = (plugin: Plugin<object>): string[] =>
    [...(plugin.dependsOn?.required ?? []), ...(plugin.dependsOn?.optional ?? [])].filter((name) =>
      byName.has(name),
    );

  const cycle = findCycle(entries, dependencies);
  if (cycle)
    throw new ConfigError(`plugin dependency cycle in mode '${mode}': ${cycle.join(' -> ')}`);

  const ordered: T[] = [];
  const placed = new Set<string>();
  while (ordered.length < entries.length) {
    // The first entry in app.json order whose dependencies are all placed; a cycle was ruled out.
    const next = entries.find(
      ({ plugin }) =>
        !placed.has(plugin.name) && dependencies(plugin).every((name) => placed.has(name)),
    ) as T;
    ordered.push(next);
    placed.add(next.plugin.name);
  }
  return ordered;
}

function findCycle<T extends { readonly plugin: Plugin<object> }>(
  entries: readonly T[],
  dependencies: (plugin: Plugin<object>) => string[],
): string[] | undefined {
  const byName = new Map(entries.map((entry) => [entry.plugin.name, entry.plugin]));
  const done = new Set<string>();
  const path: string[] = [];

  const visit = (name: string): string[] | undefined => {
    const start = path.indexOf(name);
    if (start >= 0) return [...path.slice(start), name];
    if (done.has(name)) return undefined;
    path.push(name);
    for (const dependency of dependencies(byName.get(name) as Plugin<object>)) {
      const cycle = visit(dependency);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(name);
    return undefined;
  };

  for (const { plugin } of entries) {
    const cycle = visit(plugin.name);
    if (cycle) return cycle;
  }
  return undefined;
}
