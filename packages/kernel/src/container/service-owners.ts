import { RegistrationError } from '../errors.js';

/** The owner recorded for the services the kernel registers itself. */
export const KERNEL_OWNER = 'kernel';

/** A plugin that took over a name another owner registered, as its `replaces` declared. */
export interface ServiceReplacement {
  readonly service: string;
  readonly plugin: string;
  /** The plugin (or `kernel`) whose registration was replaced. */
  readonly owner: string;
}

/**
 * Who registered each service name, so that a plugin cannot overwrite the kernel's or another
 * plugin's service by accident: only a name nobody owns yet, one it owns already, or one its
 * definition lists in `replaces`.
 */
export class ServiceOwners {
  private readonly owners = new Map<string | symbol, string>();

  constructor(kernelServices: Iterable<string>) {
    for (const name of kernelServices) this.owners.set(name, KERNEL_OWNER);
  }

  ownerOf(service: string | symbol): string | undefined {
    return this.owners.get(service);
  }

  /**
   * Each name in `replaces` must be owned by someone else when the plugin starts registering:
   * a provider registers before it only when the plugin depends on that provider.
   */
  checkReplaces(plugin: string, replaces: readonly string[]): void {
    for (const service of replaces) {
      const owner = this.owners.get(service);
      if (owner === undefined || owner === plugin) {
        throw new RegistrationError(
          `plugin '${plugin}' declares replaces: ['${service}'], but no plugin registered '${service}' before it: name its provider in dependsOn so that it registers first, or drop '${service}' from replaces`,
        );
      }
    }
  }

  /**
   * Records `plugin` as the owner of `service`, or throws naming the name and both owners.
   * Returns the replacement when the plugin took the name over as it declared.
   */
  claim(
    service: string | symbol,
    plugin: string,
    replaces: readonly string[],
  ): ServiceReplacement | undefined {
    const owner = this.owners.get(service);
    if (owner === undefined || owner === plugin) {
      this.owners.set(service, plugin);
      return undefined;
    }
    const name = String(service);
    if (!replaces.includes(name)) {
      const who = owner === KERNEL_OWNER ? 'the kernel provides' : `plugin '${owner}' provides`;
      throw new RegistrationError(
        `plugin '${plugin}' registers '${name}', which ${who}: choose another name, or declare replaces: ['${name}'] to replace it on purpose`,
      );
    }
    this.owners.set(service, plugin);
    return { service: name, plugin, owner };
  }
}
