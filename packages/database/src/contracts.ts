/**
 * What other plugins, in this repository or not, use of the database plugin: the connection,
 * the registry where a plugin adds its own tables and migrations, and shared transactions.
 * Types only: the services are resolved from the container (`database`, `schemaRegistry`).
 */
export type { DatabaseConnection } from './connection/database.js';
export type { ChainVerification } from './integrity/chain-verification.js';
export type { CommitListener } from './signals/commit-signals.js';
export type { StatementOptions } from './connection/search-pool.js';
export type {
  MigrationClass,
  OwnedMigrations,
  SchemaContribution,
  SchemaRegistry,
} from './schema/schema-registry.js';
export type {
  SharedTransaction,
  TransactionParticipant,
  TransactionSource,
} from './schema/shared-transaction.js';
export type { Service } from './service.js';
/** TypeORM's types a migration and a storage class are written with. */
export type { EntityManager, MigrationInterface, QueryRunner } from 'typeorm';

import type { DatabaseConnection } from './connection/database.js';
import type { ChainVerification } from './integrity/chain-verification.js';
import type { CommitSignals } from './signals/commit-signals.js';
import type { SchemaRegistry } from './schema/schema-registry.js';
import type { Service } from './service.js';

declare module '@lni/kernel' {
  interface Cradle {
    /** The connection; `available` is false while the database does not answer. */
    readonly database: DatabaseConnection;
    /** Where each plugin adds its own tables and migrations, in `register`. */
    readonly schemaRegistry: Service<SchemaRegistry>;
    /**
     * The boot's integrity check of the stored chain. A plugin that reads the chain at boot may
     * take it over in `register` and await `verified()` before serving (see its file).
     */
    readonly chainVerification: Service<ChainVerification>;
    /**
     * NOTIFY on the primary, delivered once this node's database (possibly a standby) has
     * replayed the commit that sent it; `undefined` after every (re)connection. Needs a server
     * database: never called on the embedded one.
     */
    readonly commitSignals: Service<CommitSignals>;
  }
}

/** What a plugin uses of `commitSignals` (see `signals/commit-signals.ts`). */
export type CommitSignalSource = Pick<Service<CommitSignals>, 'on' | 'onArrival' | 'connected'>;
