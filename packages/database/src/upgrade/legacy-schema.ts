/**
 * The shape of an ARK Core 2.7 database (core-database-postgres): its own `migrations` table,
 * blocks, transactions without `block_height` (vendor field as bytea, nonce, type_group and
 * asset added during 2.6), rounds and the wallet cache. Used to build test and benchmark
 * databases for the upgrade.
 */
export const legacySchema = [
  `CREATE TABLE migrations (id SERIAL PRIMARY KEY, name VARCHAR(255) UNIQUE NOT NULL)`,
  `CREATE TABLE wallets (
     address VARCHAR(36) PRIMARY KEY, public_key VARCHAR(66) UNIQUE, second_public_key VARCHAR(66),
     vote VARCHAR(66), username VARCHAR(64) UNIQUE, balance BIGINT NOT NULL,
     vote_balance BIGINT NOT NULL, produced_blocks BIGINT NOT NULL, missed_blocks BIGINT NOT NULL)`,
  `CREATE TABLE rounds (
     public_key VARCHAR(66) NOT NULL, balance BIGINT NOT NULL, round BIGINT NOT NULL,
     PRIMARY KEY (round, public_key))`,
  `CREATE TABLE blocks (
     id VARCHAR(64) PRIMARY KEY, version SMALLINT NOT NULL, "timestamp" INTEGER NOT NULL,
     previous_block VARCHAR(64) UNIQUE, height INTEGER NOT NULL UNIQUE,
     number_of_transactions INTEGER NOT NULL, total_amount BIGINT NOT NULL,
     total_fee BIGINT NOT NULL, reward BIGINT NOT NULL, payload_length INTEGER NOT NULL,
     payload_hash VARCHAR(64) NOT NULL, generator_public_key VARCHAR(66) NOT NULL,
     block_signature VARCHAR(256) NOT NULL)`,
  `CREATE TABLE transactions (
     id VARCHAR(64) PRIMARY KEY, version SMALLINT NOT NULL,
     block_id VARCHAR(64) NOT NULL REFERENCES blocks(id) ON DELETE CASCADE,
     sequence SMALLINT NOT NULL, "timestamp" INTEGER NOT NULL,
     sender_public_key VARCHAR(66) NOT NULL, recipient_id VARCHAR(36), type SMALLINT NOT NULL,
     vendor_field BYTEA, amount BIGINT NOT NULL, fee BIGINT NOT NULL, serialized BYTEA NOT NULL,
     type_group INTEGER NOT NULL DEFAULT 1, nonce BIGINT NOT NULL, asset JSONB)`,
  'CREATE INDEX transactions_block_id ON transactions (block_id)',
  'CREATE INDEX transactions_sender_public_key ON transactions (sender_public_key)',
  'CREATE INDEX transactions_recipient_id ON transactions (recipient_id)',
  'CREATE INDEX transactions_type ON transactions (type)',
  'CREATE INDEX transactions_asset ON transactions USING GIN (asset)',
  'CREATE INDEX blocks_generator_public_key ON blocks (generator_public_key)',
  'CREATE INDEX blocks_timestamp ON blocks ("timestamp")',
];

/** Names 2.7 recorded in its `migrations` table (a representative subset). */
export const legacyMigrationNames = [
  '20180304100000-create-migrations-table',
  '20180305100000-create-wallets-table',
  '20180305200000-create-rounds-table',
  '20180305300000-create-blocks-table',
  '20180305400000-create-transactions-table',
  '20181129400000-add-block_id-index-to-transactions-table',
  '20190313000000-add-asset-column-to-transactions-table',
  '20190619000000-drop-id-column-from-rounds-table',
  '20190626000000-enforce-chained-blocks',
  '20190806000000-add-nonce-column-to-transactions-table',
  '20190803000000-add-type_group-column-to-transactions-table',
  '20191003000000-migrate-vendor-field-hex',
  '20200317000000-add-blocks-and-transactions-indexes',
];
