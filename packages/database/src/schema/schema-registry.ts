import type { MigrationInterface } from 'typeorm';
import { MigrationError } from '../errors.js';

/** A migration class as TypeORM knows them: built without arguments, named `<Name><13-digit ms>`. */
export type MigrationClass = new () => MigrationInterface;

/** What a plugin brings to the node's schema: its migrations and, if it uses any, TypeORM entities. */
export interface SchemaContribution {
  /** Applied oldest first (by the timestamp ending each name), each in its own transaction. */
  readonly migrations?: readonly MigrationClass[];
  /** Entity classes for the shared connection; most plugins query with SQL and need none. */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity targets
  readonly entities?: readonly Function[];
  /**
   * Tables whose rows come and go (a queue): vacuumed at every statistics check, since the
   * embedded database runs no autovacuum and their indexes would grow with every row ever added.
   */
  readonly churning?: readonly string[];
}

/** One plugin's migrations, in the order they run. */
export interface OwnedMigrations {
  readonly owner: string;
  readonly migrations: readonly MigrationClass[];
}

/**
 * Where each plugin registers the tables it owns, in `register`. The database plugin applies
 * the migrations at boot plugin by plugin, in the order the plugins registered (the kernel's
 * dependency order), so a plugin's migrations may use the tables of the plugins it depends on.
 */
export class SchemaRegistry {
  readonly #owners = new Map<string, OwnedMigrations>();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- see SchemaContribution
  readonly #entities: Function[] = [];
  readonly #names = new Map<string, string>();
  readonly #churning: string[] = [];

  /** Adds `owner`'s tables; a migration name another owner registered stops start-up. */
  add(owner: string, contribution: SchemaContribution): void {
    const migrations = [...(contribution.migrations ?? [])];
    for (const migration of migrations) {
      migrationTimestamp(migration);
      const name = migrationName(migration);
      const other = this.#names.get(name);
      if (other !== undefined) {
        throw new MigrationError(
          `migration ${name} of plugin '${owner}' is already registered by plugin '${other}'`,
        );
      }
      this.#names.set(name, owner);
    }
    const previous = this.#owners.get(owner)?.migrations ?? [];
    this.#owners.set(owner, {
      owner,
      migrations: [...previous, ...migrations].sort(
        (a, b) => migrationTimestamp(a) - migrationTimestamp(b),
      ),
    });
    for (const table of contribution.churning ?? []) {
      if (!/^[a-z_][a-z0-9_]*$/.test(table)) {
        throw new MigrationError(
          `plugin '${owner}': churning table '${table}' is not a plain name`,
        );
      }
    }
    this.#entities.push(...(contribution.entities ?? []));
    this.#churning.push(...(contribution.churning ?? []));
  }

  /** The tables vacuumed at every statistics check. */
  churningTables(): readonly string[] {
    return [...this.#churning];
  }

  /** Every owner's migrations, owners in registration order. */
  migrations(): readonly OwnedMigrations[] {
    return [...this.#owners.values()];
  }

  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- see SchemaContribution
  entities(): readonly Function[] {
    return [...this.#entities];
  }
}

/** The name recorded in `lni_migrations`: the instance's `name`, else the class name (as TypeORM). */
export function migrationName(migration: MigrationClass): string {
  return new migration().name ?? migration.name;
}

/** The 13-digit millisecond timestamp that ends a migration's name, as TypeORM reads it. */
export function migrationTimestamp(migration: MigrationClass): number {
  const name = migrationName(migration);
  const match = /(\d{13})$/.exec(name);
  if (!match) {
    throw new MigrationError(
      `migration ${name} must end its name with a 13-digit timestamp (ms), as ${name}1764900000000`,
    );
  }
  return Number(match[1]);
}
