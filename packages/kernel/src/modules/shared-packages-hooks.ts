import type { InitializeHook, ResolveHook } from 'node:module';

/** What `shareNodePackages` hands the hooks thread. */
export interface SharedPackagesData {
  /** Modules under this URL are the node's own and resolve as usual. */
  readonly installation: string;
  /** Module URLs of the node to resolve shared packages from, first that finds one wins. */
  readonly resolveFrom: readonly string[];
}

/** The packages a plugin shares with the node: one kernel, one container, one joi. */
const SHARED = /^(?:@lni\/[^/]+|awilix|joi)(?:\/.*)?$/;

let settings: SharedPackagesData | undefined;

export const initialize: InitializeHook<SharedPackagesData> = (data) => {
  settings = data;
};

/**
 * Resolves `@lni/*`, `awilix` and `joi` imported by a module outside the node's installation
 * (a plugin in the config directory, or installed by `kernel plugin:add`) as the node itself
 * resolves them: a plugin's `Joi.isSchema`, `asClass` and `definePlugin` are the node's. A
 * package the node does not have is left to the plugin, whose error names it.
 */
export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const parent = context.parentURL;
  if (
    settings === undefined ||
    !SHARED.test(specifier) ||
    parent === undefined ||
    !parent.startsWith('file:') ||
    parent.startsWith(settings.installation)
  ) {
    return nextResolve(specifier, context);
  }
  for (const parentURL of settings.resolveFrom) {
    try {
      return await nextResolve(specifier, { ...context, parentURL });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return nextResolve(specifier, context);
};

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
}
