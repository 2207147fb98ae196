import type { MigrationInterface, QueryRunner } from '@lni/database/contracts';

/**
 * Webhooks post ARK 3's body, whose `data` is the event's own data (a transaction, a block
 * header) rather than LNI's earlier `{ transaction, block }`, and send ARK's token: each
 * webhook keeps the first half of the token shown at its creation, sent as `Authorization`.
 * Conditions written for the earlier body name their keys from its root; they are rewritten to
 * name the same values in the new data, so that existing webhooks go on matching.
 */
export class WebhookArkShape1764700000000 implements MigrationInterface {
  name = 'WebhookArkShape1764700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS token VARCHAR(32)');
    await runner.query(
      `UPDATE webhooks w SET conditions = (
         SELECT COALESCE(jsonb_agg(
           CASE
             WHEN w.event = 'transaction.applied' AND c.value->>'key' LIKE 'transaction.%'
               THEN jsonb_set(c.value, '{key}', to_jsonb(substr(c.value->>'key', 13)))
             WHEN w.event IN ('block.applied', 'block.reverted') AND c.value->>'key' LIKE 'block.%'
               THEN jsonb_set(c.value, '{key}', to_jsonb(substr(c.value->>'key', 7)))
             WHEN w.event = 'forger.missing' AND c.value->>'key' = 'delegate'
               THEN jsonb_set(c.value, '{key}', '"delegate.publicKey"')
             ELSE c.value
           END ORDER BY c.ordinality), '[]'::jsonb)
         FROM jsonb_array_elements(w.conditions) WITH ORDINALITY AS c(value, ordinality))`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `UPDATE webhooks w SET conditions = (
         SELECT COALESCE(jsonb_agg(
           CASE
             WHEN w.event = 'transaction.applied' AND c.value->>'key' NOT LIKE 'block.%'
               THEN jsonb_set(c.value, '{key}', to_jsonb('transaction.' || (c.value->>'key')))
             WHEN w.event IN ('block.applied', 'block.reverted')
               THEN jsonb_set(c.value, '{key}', to_jsonb('block.' || (c.value->>'key')))
             WHEN w.event = 'forger.missing' AND c.value->>'key' = 'delegate.publicKey'
               THEN jsonb_set(c.value, '{key}', '"delegate"')
             ELSE c.value
           END ORDER BY c.ordinality), '[]'::jsonb)
         FROM jsonb_array_elements(w.conditions) WITH ORDINALITY AS c(value, ordinality))`,
    );
    await runner.query('ALTER TABLE webhooks DROP COLUMN IF EXISTS token');
  }
}
