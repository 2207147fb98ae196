import type { Resolver } from 'awilix';
import { ServiceError } from '../errors.js';
import type { Container } from '../plugin.js';
import type { ServiceOwners, ServiceReplacement } from './service-owners.js';

export interface PluginContainerSettings {
  readonly plugin: string;
  /** The names the plugin's definition says it replaces on purpose. */
  readonly replaces: readonly string[];
  readonly owners: ServiceOwners;
  readonly onReplaced: (replacement: ServiceReplacement) => void;
}

/**
 * The container as one plugin sees it: the application's container, except that `register`
 * accepts only names the plugin may own (see ServiceOwners) and wraps each resolver so that
 * an error thrown while constructing the service names the service and this plugin, whichever
 * plugin's boot happened to resolve it first.
 */
export function pluginContainer(root: Container, settings: PluginContainerSettings): Container {
  const { plugin, replaces, owners, onReplaced } = settings;

  function register(
    nameOrResolvers: string | symbol | Readonly<Record<string, Resolver<unknown>>>,
    resolver?: Resolver<unknown>,
  ): Container {
    const entries: [string | symbol, Resolver<unknown> | undefined][] =
      typeof nameOrResolvers === 'object'
        ? Object.entries(nameOrResolvers)
        : [[nameOrResolvers, resolver]];
    for (const [service, entry] of entries) {
      if (entry === undefined) {
        throw new TypeError(`plugin '${plugin}' registers '${String(service)}' without a resolver`);
      }
      const replaced = owners.claim(service, plugin, replaces);
      root.register(service, attributed(entry, String(service), plugin));
      if (replaced) onReplaced(replaced);
    }
    return facade;
  }

  const facade: Container = new Proxy(root, {
    get: (target, key) => (key === 'register' ? register : Reflect.get(target, key)),
  });
  return facade;
}

function attributed<T>(resolver: Resolver<T>, service: string, plugin: string): Resolver<T> {
  return {
    ...resolver,
    resolve(container) {
      try {
        return resolver.resolve(container);
      } catch (error) {
        // A dependency's own failure already names its service and plugin.
        if (error instanceof ServiceError) throw error;
        throw new ServiceError(service, plugin, error);
      }
    },
  };
}
