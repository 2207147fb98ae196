import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { SharedPackagesData } from './shared-packages-hooks.js';

export interface SharedPackagesSettings {
  /** The node's installation (the repository, or where npm installed the CLI). */
  readonly installation: string;
  /** Module URLs of the node that resolve its packages, e.g. the CLI's `import.meta.url`. */
  readonly resolveFrom: readonly string[];
}

let registered = false;

/**
 * Makes plugins outside the node's installation import the node's own `@lni/*`, `awilix` and
 * `joi`, through a Node module resolve hook (no symlinks written). Call once per process,
 * before loading plugins; later calls do nothing.
 */
export function shareNodePackages(settings: SharedPackagesSettings): void {
  if (registered) return;
  registered = true;
  const installation = pathToFileURL(settings.installation).href.replace(/\/?$/, '/');
  const data: SharedPackagesData = {
    installation,
    // The kernel's own copies of awilix and joi first: they are the ones it checks against.
    resolveFrom: [import.meta.url, ...settings.resolveFrom],
  };
  register(new URL('./shared-packages-hooks.js', import.meta.url), { data });
}
