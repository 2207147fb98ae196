import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@lni/database';
import { postgresSkipReason } from '../../../../../../test/support/postgres.js';
import { openWebhookDatabase } from '../__fixtures__/webhook-database.js';
import { WebhookStorage } from '../webhook-storage.js';
import { WebhookArkShape1764700000000 } from './1764700000000-webhook-ark-shape.js';

/** Webhooks as the earlier body's conditions named their keys. */
const EARLIER = [
  {
    id: 'tx',
    event: 'transaction.applied',
    conditions: [
      { key: 'transaction.recipientId', condition: 'eq', value: 'ADeposit' },
      { key: 'transaction.asset.votes', condition: 'contains', value: '+02ab' },
      { key: 'block.height', condition: 'gte', value: 10 },
    ],
  },
  {
    id: 'block',
    event: 'block.applied',
    conditions: [{ key: 'block.height', condition: 'gt', value: 3 }],
  },
  {
    id: 'missed',
    event: 'forger.missing',
    conditions: [{ key: 'delegate', condition: 'eq', value: '02aa' }],
  },
  {
    id: 'peer',
    event: 'peer.added',
    conditions: [{ key: 'ip', condition: 'regexp', value: '^10\\.' }],
  },
];

describe.skipIf(postgresSkipReason)("webhooks in ARK's shape: the migration", () => {
  let database: Database;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ database, dispose } = await openWebhookDatabase());
  });
  afterAll(async () => {
    await dispose?.();
  });

  it('adds the token and rewrites the keys of earlier conditions to name the same values', async () => {
    const migration = new WebhookArkShape1764700000000();
    await database.transaction((manager) => migration.down(manager.queryRunner!));
    for (const webhook of EARLIER) {
      await database.manager.query(
        `INSERT INTO webhooks (id, event, target, enabled, conditions, secret, created_at)
         VALUES ($1, $2, 'http://127.0.0.1:1/hook', true, $3, 'secret', 1)`,
        [webhook.id, webhook.event, JSON.stringify(webhook.conditions)],
      );
    }
    await database.transaction((manager) => migration.up(manager.queryRunner!));

    const webhooks = new Map(
      (await new WebhookStorage({ database }).list()).map((webhook) => [webhook.id, webhook]),
    );
    expect(webhooks.get('tx')?.conditions.map((c) => c.key)).toEqual([
      'recipientId',
      'asset.votes',
      'block.height',
    ]);
    expect(webhooks.get('block')?.conditions).toEqual([
      { key: 'height', condition: 'gt', value: 3 },
    ]);
    expect(webhooks.get('missed')?.conditions.map((c) => c.key)).toEqual(['delegate.publicKey']);
    expect(webhooks.get('peer')?.conditions).toEqual(EARLIER[3]?.conditions);
    // Made before tokens: nothing to send as Authorization.
    expect([...webhooks.values()].map((webhook) => webhook.token)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
});
