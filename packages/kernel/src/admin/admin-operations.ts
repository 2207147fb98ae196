import { RegistrationError } from '../errors.js';
import { AdminError, type AdminOperation } from './admin-operation.js';

const NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;

interface Registered {
  readonly plugin: string;
  /** Undefined while the name is only reserved (the kernel's, added once the node booted). */
  readonly operation: AdminOperation<object> | undefined;
}

/** The kernel's own operations, added when the admin starts; no plugin may take their names. */
export const KERNEL_OPERATIONS = ['log', 'status', 'stop'] as const;

/**
 * The operations a running node offers over its admin socket, contributed by plugins during
 * `register` (the kernel adds `status`, `stop` and `log`). Each name has one owner: a second
 * plugin claiming it stops start-up naming both.
 */
export class AdminOperations {
  private readonly operations = new Map<string, Registered>(
    KERNEL_OPERATIONS.map((name) => [name, { plugin: 'kernel', operation: undefined }]),
  );

  /** Adds `plugin`'s operations; throws a RegistrationError on a malformed or taken name. */
  add<Args extends object>(plugin: string, ...operations: AdminOperation<Args>[]): void {
    for (const operation of operations) {
      if (!NAME.test(operation.name)) {
        throw new RegistrationError(
          `plugin '${plugin}' offers an admin operation named '${operation.name}': names are lower-case words joined by dots, such as 'pool.drop'`,
        );
      }
      const owner = this.operations.get(operation.name);
      const reservedForIt = owner?.plugin === plugin && owner.operation === undefined;
      if (owner && !reservedForIt) {
        throw new RegistrationError(
          `admin operation '${operation.name}' is offered by two plugins: '${owner.plugin}' and '${plugin}'`,
        );
      }
      this.operations.set(operation.name, {
        plugin,
        operation: operation as unknown as AdminOperation<object>,
      });
    }
  }

  /** The operation named so; an AdminError listing the known ones when there is none. */
  get(name: string): AdminOperation<object> {
    const registered = this.operations.get(name)?.operation;
    if (!registered) {
      throw new AdminError(
        'unknown-operation',
        `unknown admin operation '${name}'; this node offers: ${this.names().join(', ')}`,
      );
    }
    return registered;
  }

  /** Every operation with its plugin, sorted by name: what `GET /operations` answers. */
  list(): { readonly name: string; readonly plugin: string; readonly description: string }[] {
    return this.names().map((name) => {
      const { plugin, operation } = this.operations.get(name) as Registered;
      return { name, plugin, description: operation?.description ?? '' };
    });
  }

  /** The names of the operations offered now (reserved names not yet added are left out). */
  private names(): string[] {
    return [...this.operations.entries()]
      .filter(([, registered]) => registered.operation !== undefined)
      .map(([name]) => name)
      .sort();
  }
}
