/**
 * The 3.0 tables, shared by the initial migration and the 2.7 upgrade (which builds the new
 * transactions table beside the old one before switching).
 */
export const createBlocksTable = `
CREATE TABLE IF NOT EXISTS blocks (
  id VARCHAR(64) PRIMARY KEY,
  version SMALLINT NOT NULL,
  "timestamp" INTEGER NOT NULL,
  previous_block VARCHAR(64) UNIQUE,
  height INTEGER NOT NULL UNIQUE,
  number_of_transactions INTEGER NOT NULL,
  total_amount BIGINT NOT NULL,
  total_fee BIGINT NOT NULL,
  reward BIGINT NOT NULL,
  payload_length INTEGER NOT NULL,
  payload_hash VARCHAR(64) NOT NULL,
  generator_public_key VARCHAR(66) NOT NULL,
  block_signature VARCHAR(256) NOT NULL
)`;

export function createTransactionsTable(name: string): string {
  return `
CREATE TABLE IF NOT EXISTS ${name} (
  id VARCHAR(64) PRIMARY KEY,
  version SMALLINT NOT NULL,
  block_id VARCHAR(64) NOT NULL,
  block_height INTEGER NOT NULL,
  sequence SMALLINT NOT NULL,
  "timestamp" INTEGER NOT NULL,
  nonce BIGINT NOT NULL,
  sender_public_key VARCHAR(66) NOT NULL,
  recipient_id VARCHAR(36),
  type SMALLINT NOT NULL,
  type_group INTEGER NOT NULL,
  vendor_field BYTEA,
  amount BIGINT NOT NULL,
  fee BIGINT NOT NULL,
  serialized BYTEA NOT NULL,
  asset JSONB
)`;
}

export const createRoundsTable = `
CREATE TABLE IF NOT EXISTS rounds (
  round BIGINT NOT NULL,
  public_key VARCHAR(66) NOT NULL,
  balance BIGINT NOT NULL,
  PRIMARY KEY (round, public_key)
)`;

/** Constraints and indexes for what the API filters and orders on; all idempotent. */
export const schemaIndexes = [
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'transactions_block_id_fkey') THEN
       ALTER TABLE transactions ADD CONSTRAINT transactions_block_id_fkey
         FOREIGN KEY (block_id) REFERENCES blocks(id) ON DELETE CASCADE;
     END IF;
   END $$`,
  'CREATE UNIQUE INDEX IF NOT EXISTS transactions_block_height_sequence ON transactions (block_height, sequence)',
  'CREATE INDEX IF NOT EXISTS transactions_block_id ON transactions (block_id)',
  'CREATE INDEX IF NOT EXISTS transactions_sender_public_key ON transactions (sender_public_key)',
  'CREATE INDEX IF NOT EXISTS transactions_recipient_id ON transactions (recipient_id)',
  'CREATE INDEX IF NOT EXISTS transactions_type_group_type ON transactions (type_group, type)',
  'CREATE INDEX IF NOT EXISTS transactions_timestamp ON transactions ("timestamp")',
  'CREATE INDEX IF NOT EXISTS transactions_amount ON transactions (amount)',
  'CREATE INDEX IF NOT EXISTS transactions_fee ON transactions (fee)',
  'CREATE INDEX IF NOT EXISTS transactions_asset ON transactions USING GIN (asset)',
  'CREATE INDEX IF NOT EXISTS blocks_generator_public_key ON blocks (generator_public_key)',
  'CREATE INDEX IF NOT EXISTS blocks_timestamp ON blocks ("timestamp")',
];
