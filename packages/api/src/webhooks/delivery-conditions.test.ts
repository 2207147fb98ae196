import { createLogger, EventBus } from '@lni/kernel';
import type { LedgerBlock } from '@lni/state/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postgresSkipReason } from '../../../../test/support/postgres.js';
import { ConditionMatcher } from './condition-matcher.js';
import { DeliveryConditions } from './delivery-conditions.js';
import { openWebhookDatabase } from './storage/__fixtures__/webhook-database.js';
import { WebhookStorage, type Webhook } from './storage/webhook-storage.js';
import { WebhookEvents } from './webhook-events.js';

const logger = createLogger({ level: 'fatal' });

const block = {
  id: 'ab'.repeat(32),
  version: 0,
  timestamp: 1000,
  height: 7,
  previousBlock: 'cd'.repeat(32),
  numberOfTransactions: 0,
  totalAmount: 0n,
  totalFee: 0n,
  reward: 200_000_000n,
  payloadLength: 0,
  payloadHash: 'ef'.repeat(32),
  generatorPublicKey: `02${'11'.repeat(32)}`,
  blockSignature: '30'.repeat(35),
  transactions: [],
} as unknown as LedgerBlock;

function webhook(id: string, conditions: Webhook['conditions']): Webhook {
  return {
    id,
    event: 'block.applied',
    target: 'http://127.0.0.1:9/hook',
    enabled: true,
    conditions,
    secret: 'secret',
    token: null,
    createdAt: Date.now(),
    failingSince: null,
    disabledReason: null,
  };
}

const worker = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);

describe.skipIf(postgresSkipReason)('webhook conditions tested after the block commit', () => {
  let opened: Awaited<ReturnType<typeof openWebhookDatabase>>;
  let storage: WebhookStorage;

  beforeAll(async () => {
    opened = await openWebhookDatabase();
    storage = new WebhookStorage({ database: opened.database });
  });
  afterAll(async () => opened?.dispose());
  beforeEach(async () => {
    await opened.database.manager.query('DELETE FROM webhooks');
    await storage.insert(webhook('tall', [{ key: 'height', condition: 'gt', value: '5' }]));
    await storage.insert(webhook('plain', []));
  });

  /** Commits a block whose transaction writes its webhook deliveries; resolves at the commit. */
  async function commitBlock(matcher: ConditionMatcher): Promise<void> {
    const events = new WebhookEvents({
      events: new EventBus(logger),
      webhookStorage: storage,
      sources: {},
      matcher,
      logger,
      written: () => undefined,
      onError: (error) => {
        throw error;
      },
    });
    await events.reload();
    await opened.database.transaction((manager) =>
      events.blockCommitting(manager, {
        events: [{ event: 'block.applied', payload: { block } }],
      }),
    );
  }

  async function statuses(): Promise<Record<string, string>> {
    const rows = (await opened.database.manager.query(
      'SELECT webhook_id, status FROM webhook_deliveries',
    )) as { webhook_id: string; status: string }[];
    return Object.fromEntries(rows.map((row) => [row.webhook_id, row.status]));
  }

  it('commits the block before a slow condition is answered, then sends what matched', async () => {
    const matcher = new ConditionMatcher({ workerUrl: worker('slow-condition-worker.mjs') });
    let answeredAt = 0;
    const timed = {
      match: async (...args: Parameters<ConditionMatcher['match']>) => {
        const matching = await matcher.match(...args);
        answeredAt = performance.now();
        return matching;
      },
    };
    try {
      const started = performance.now();
      await commitBlock(matcher);
      const committedAt = performance.now();
      // Rows only, no matching: the commit does not wait the worker's 800 ms.
      expect(committedAt - started).toBeLessThan(500);
      expect(await statuses()).toEqual({ tall: 'conditional', plain: 'pending' });

      await new DeliveryConditions({ webhookStorage: storage, matcher: timed, logger }).settle();
      expect(answeredAt).toBeGreaterThan(committedAt);
      expect(await statuses()).toEqual({ tall: 'pending', plain: 'pending' });
      expect((await storage.due(Date.now(), 10)).map((d) => d.webhookId).sort()).toEqual([
        'plain',
        'tall',
      ]);
    } finally {
      await matcher.stop();
    }
  });

  it('drops, never sends, a delivery whose condition timed out; the commit did not wait', async () => {
    const matcher = new ConditionMatcher({
      workerUrl: worker('stuck-condition-worker.mjs'),
      timeoutMs: 300,
    });
    try {
      const started = performance.now();
      await commitBlock(matcher);
      expect(performance.now() - started).toBeLessThan(300);
      await new DeliveryConditions({ webhookStorage: storage, matcher, logger }).settle();
      expect(await statuses()).toEqual({ tall: 'dropped', plain: 'pending' });
      expect((await storage.due(Date.now(), 10)).map((d) => d.webhookId)).toEqual(['plain']);
    } finally {
      await matcher.stop();
    }
  });

  it('drops a delivery whose conditions do not hold, with the real worker', async () => {
    await opened.database.manager.query(
      `UPDATE webhooks SET conditions = '[{"key":"height","condition":"gt","value":"100"}]' WHERE id = 'tall'`,
    );
    const matcher = new ConditionMatcher();
    try {
      await commitBlock(matcher);
      await new DeliveryConditions({ webhookStorage: storage, matcher, logger }).settle();
      expect(await statuses()).toEqual({ tall: 'dropped', plain: 'pending' });
    } finally {
      await matcher.stop();
    }
  });
});
