import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { legacyMigrationNames, legacySchema } from './legacy-schema.js';

export interface LegacyChainShape {
  readonly blocks: number;
  readonly transactionsPerBlock: number;
}

/** Ids the generator gives, so that tests can check what the upgrade carried over. */
export const legacyIds = {
  block: (height: number) => sha256Hex(`block:${height}`),
  transaction: (height: number, sequence: number) => sha256Hex(`tx:${height}:${sequence}`),
};

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const BLOCK_ID = (height: string) => `encode(sha256(('block:' || ${height})::bytea), 'hex')`;

/**
 * Fills an empty database with a chain in the 2.7 shape (the genesis block's previous block
 * stored as '0', as ARK stores it): every third transaction is a
 * transfer, a vote or a multipayment, so the upgrade carries assets of each form. Rows are
 * made by the server (generate_series), so a million transactions take seconds.
 */
export async function generateLegacyDatabase(
  manager: EntityManager,
  shape: LegacyChainShape,
  onBlocks?: (done: number) => void,
): Promise<void> {
  for (const statement of legacySchema) await manager.query(statement);
  await manager.query('INSERT INTO migrations (name) SELECT unnest($1::varchar[])', [
    legacyMigrationNames,
  ]);
  const chunk = Math.max(1, Math.floor(200_000 / Math.max(1, shape.transactionsPerBlock)));
  for (let from = 1; from <= shape.blocks; from += chunk) {
    const to = Math.min(shape.blocks, from + chunk - 1);
    await insertBlocks(manager, from, to, shape.transactionsPerBlock);
    onBlocks?.(to);
  }
}

async function insertBlocks(manager: EntityManager, from: number, to: number, perBlock: number) {
  await manager.query(
    `INSERT INTO blocks SELECT ${BLOCK_ID('h')}, 0, h * 8,
       CASE WHEN h = 1 THEN '0' ELSE ${BLOCK_ID('(h - 1)')} END, h, $3::int,
       $3::bigint * 100000000, $3::bigint * 10000000, 200000000, $3::int * 32,
       repeat('0', 64), '02' || repeat('a', 64), repeat('b', 140)
     FROM generate_series($1::int, $2::int) AS h`,
    [from, to, perBlock],
  );
  if (perBlock === 0) return;
  await manager.query(
    `INSERT INTO transactions (id, version, block_id, sequence, "timestamp", sender_public_key,
       recipient_id, type, vendor_field, amount, fee, serialized, type_group, nonce, asset)
     SELECT encode(sha256(('tx:' || h || ':' || s)::bytea), 'hex'), 2, ${BLOCK_ID('h')}, s,
       h * 8 - 1, '03' || lpad(to_hex((h * 7 + s) % 5000), 64, '0'),
       CASE WHEN s % 3 = 0 THEN 'A' || lpad(((h + s) % 1000)::text, 33, '0') END,
       CASE s % 3 WHEN 0 THEN 0 WHEN 1 THEN 3 ELSE 6 END,
       CASE WHEN s % 3 = 0 THEN convert_to('payment ' || h, 'UTF8') END,
       CASE WHEN s % 3 = 0 THEN 100000000 ELSE 0 END, 10000000,
       decode(md5(h || ':' || s), 'hex'), 1, h::bigint * 1000 + s,
       CASE s % 3
         WHEN 0 THEN NULL
         WHEN 1 THEN jsonb_build_object('votes', jsonb_build_array('+02' || lpad(to_hex(h % 51), 64, '0')))
         ELSE jsonb_build_object('payments', jsonb_build_array(
           jsonb_build_object('amount', '1', 'recipientId', 'P' || lpad((h % 1000)::text, 33, '0')),
           jsonb_build_object('amount', '2', 'recipientId', 'Q' || lpad((s % 1000)::text, 33, '0'))))
       END
     FROM generate_series($1::int, $2::int) AS h, generate_series(0, $3::int - 1) AS s`,
    [from, to, perBlock],
  );
}
