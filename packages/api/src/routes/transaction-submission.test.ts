import Hapi from '@hapi/hapi';
import {
  addressFromPassphrase,
  transactionToJson,
  transfer,
  type TransactionData,
} from '@lni/crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerReader, Pool, PoolRejection } from '@lni/state/contracts';
import { poolRoutes } from './pool.js';

const network = 23;
const recipient = addressFromPassphrase('bob', network);
const signed = (nonce: bigint) =>
  transactionToJson(
    transfer({ network })
      .recipientId(recipient)
      .amount(5)
      .fee(10_000_000)
      .nonce(nonce)
      .sign('alice')
      .build(),
  );

/**
 * A pool that holds what it accepted and refuses for the reasons a test gives by nonce, as the
 * state plugin's pool answers.
 */
class ScriptedPool implements Pick<Pool, 'add' | 'get' | 'all'> {
  readonly held = new Map<string, TransactionData>();
  refusals = new Map<bigint, Pick<PoolRejection, 'reason' | 'message'>>();

  async add(transactions: readonly TransactionData[]) {
    const accepted: string[] = [];
    const rejected: PoolRejection[] = [];
    transactions.forEach((tx, index) => {
      const id = tx.id as string;
      const refusal = this.held.has(id)
        ? { reason: 'duplicate', message: `${id} is already in the pool` }
        : this.refusals.get(tx.nonce);
      if (refusal) rejected.push({ index, id, ...refusal });
      else {
        this.held.set(id, tx);
        accepted.push(id);
      }
    });
    return { accepted, rejected };
  }
  get(id: string) {
    return this.held.get(id);
  }
  all() {
    return [...this.held.values()];
  }
}

describe('POST /api/transactions', () => {
  let server: Hapi.Server;
  let pool: ScriptedPool;

  beforeEach(async () => {
    pool = new ScriptedPool();
    server = Hapi.server();
    server.route(
      poolRoutes({
        ledger: () => ({}) as LedgerReader,
        pool: () => pool,
        pubKeyHash: () => network,
      }),
    );
    await server.initialize();
  });
  afterEach(() => server.stop());

  const submit = async (transactions: unknown[]) => {
    const response = await server.inject({
      method: 'POST',
      url: '/api/transactions',
      payload: { transactions },
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: JSON.parse(response.payload),
    };
  };

  it('lists a transaction sent twice in one request once, as accepted', async () => {
    const tx = signed(1n);
    const { status, body } = await submit([tx, tx]);
    expect(status).toBe(200);
    expect(body.data).toEqual({ accept: [tx.id], broadcast: [tx.id], excess: [], invalid: [] });
    expect(body.errors).toBeUndefined();
  });

  it('answers a transaction already pooled by an earlier request with ERR_DUPLICATE', async () => {
    const tx = signed(1n);
    await submit([tx]);
    const { status, body } = await submit([tx]);
    expect(status).toBe(422);
    expect(body.data.invalid).toEqual([tx.id]);
    expect(body.errors[tx.id as string]).toEqual({
      type: 'ERR_DUPLICATE',
      message: `Transaction ${tx.id} is already in pool`,
    });
  });

  it('names each refusal by the ARK 3.x error type a client switches on', async () => {
    const refusals: [bigint, string, string][] = [
      [2n, 'ERR_TX_NONCE', 'ERR_APPLY'],
      [3n, 'ERR_TX_INSUFFICIENT_BALANCE', 'ERR_APPLY'],
      [4n, 'ERR_TX_FEE', 'ERR_LOW_FEE'],
      [5n, 'expired', 'ERR_EXPIRED'],
      [6n, 'pool.full', 'ERR_POOL_FULL'],
      [7n, 'signature', 'ERR_BAD_DATA'],
      [8n, 'invalid', 'ERR_BAD_DATA'],
      [9n, 'sender.full', 'ERR_EXCEEDS_MAX_COUNT'],
      [10n, 'something.new', 'ERR_OTHER'],
    ];
    for (const [nonce, reason] of refusals) pool.refusals.set(nonce, { reason, message: 'why' });
    const sent = refusals.map(([nonce]) => signed(nonce));
    const { status, body } = await submit([...sent, { id: 'broken', type: 0 }]);
    expect(status).toBe(422);
    expect(body.data.accept).toEqual([]);
    expect(body.data.invalid).toEqual(['broken', ...sent.map((tx) => tx.id)]);
    // ARK lists a sender over its limit under excess as well as invalid.
    expect(body.data.excess).toEqual([sent[7]?.id]);
    const types = sent.map((tx) => body.errors[tx.id as string].type);
    expect(types).toEqual(refusals.map(([, , type]) => type));
    expect(body.errors.broken.type).toBe('ERR_BAD_DATA');
    expect(body.errors[sent[0]?.id as string].message).toBe(
      `Transaction ${sent[0]?.id} cannot be applied: why`,
    );
  });

  it('refuses a transaction of another network with ERR_WRONG_NETWORK', async () => {
    const tx = { ...signed(1n), network: 30 };
    const { status, body } = await submit([tx]);
    expect(status).toBe(422);
    expect(body.errors[tx.id as string].type).toBe('ERR_WRONG_NETWORK');
  });

  it('answers a refusal caused by storage with 503 and Retry-After, so the client retries', async () => {
    pool.refusals.set(1n, { reason: 'storage', message: 'not kept: storage failed (ECONNRESET)' });
    const tx = signed(1n);
    const { status, headers, body } = await submit([tx]);
    expect(status).toBe(503);
    expect(headers['retry-after']).toBe('1');
    expect(body.errors[tx.id as string]).toEqual({
      type: 'ERR_RETRY',
      message: `Transaction ${tx.id} cannot be added to pool, please retry`,
    });
  });
});
