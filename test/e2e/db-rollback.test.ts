import { runKernel } from '@lni/cli/testing';
import {
  addressFromPassphrase,
  loadNetworkConfig,
  transfer,
  type TransactionData,
} from '@lni/crypto';
import type { TestKernel } from '@lni/kernel/testing';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/node-harness.js';
import {
  restartLedgerNode,
  startLedgerNode,
  TESTNET,
  type LedgerNode,
} from '../support/ledger-node.js';
import { databaseEnv, postgresSkipReason } from '../support/postgres.js';

const { pubKeyHash } = loadNetworkConfig(join(TESTNET, 'crypto')).network;

/** Every wallet the API lists, by address, as a client would read them. */
async function allWallets(api: ApiClient): Promise<unknown[]> {
  const wallets: { address: string }[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.get(`/wallets?limit=100&page=${page}`);
    wallets.push(...(answer.data as { address: string }[]));
    if (answer.data.length < 100) break;
  }
  return wallets.sort((a, b) => a.address.localeCompare(b.address));
}

// An operator takes a PostgreSQL node back to an earlier height with the node stopped, then
// starts it again.
describe.skipIf(postgresSkipReason)('kernel db:rollback', () => {
  let node: LedgerNode;
  let config: string;
  let passphrase: string;
  let nonce = 0n;
  let height: number;
  let walletsAtH: unknown[];
  let lastAtH: unknown;
  let dropped: TransactionData[][];
  let restarted: TestKernel | undefined;

  const pay = (label: string) => {
    nonce += 1n;
    return transfer({ network: pubKeyHash, milestone: node.milestones.at(2) })
      .recipientId(addressFromPassphrase(`rollback ${label}`, pubKeyHash))
      .amount(1_000 + Number(nonce))
      .nonce(nonce)
      .sign(passphrase)
      .build();
  };
  const rollback = (...args: string[]) =>
    runKernel(['db:rollback', '--config', config, '--data', node.kernel.paths.data, ...args]);
  const unsentHeights = async () => {
    const client = new pg.Client({
      ...node.databaseConnection,
      user: node.databaseConnection.username,
    });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT (body::jsonb->'data'->>'height')::int AS height FROM webhook_deliveries
         WHERE status = 'pending' ORDER BY 1`,
      );
      return rows.map((row: { height: number }) => row.height);
    } finally {
      await client.end();
    }
  };
  const tip = async () => node.kernel.cradle.blockProcessor.lastBlock?.height;

  beforeAll(async () => {
    node = await startLedgerNode();
    config = node.kernel.paths.config;
    await writeFile(
      join(config, '.env'),
      Object.entries(databaseEnv(node.databaseConnection))
        .map(([key, value]) => `${key}=${value}`)
        .join('\n'),
    );
    const { secrets } = JSON.parse(await readFile(join(TESTNET, 'delegates.json'), 'utf8')) as {
      secrets: string[];
    };
    passphrase = secrets[0] as string;
  });
  afterAll(async () => {
    await restarted?.stop();
    await node?.stop();
  });

  it('refuses while the node runs, above the tip, and unconfirmed', async () => {
    const sender = addressFromPassphrase(passphrase, pubKeyHash);
    nonce = BigInt((await new ApiClient(node.api).get(`/wallets/${sender}`)).data.nonce as string);
    // A webhook whose target is down: its deliveries stay unsent in the outbox.
    const hook = await fetch(`${node.api}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'block.applied', target: 'http://127.0.0.1:9/hook' }),
    });
    expect(hook.status).toBe(201);
    await node.forge([pay('a')]);
    await node.forge([pay('b'), pay('c')]);
    height = (await tip()) as number;
    walletsAtH = await allWallets(new ApiClient(node.api));
    lastAtH = (await new ApiClient(node.api).get('/blocks/last')).data;
    dropped = [[pay('d')], [pay('e'), pay('f')], [], [pay('g')]];
    for (const transactions of dropped) await node.forge(transactions);
    expect(await tip()).toBe(height + 4);

    const running = rollback('--height', '1', '--yes');
    expect((await running.exited()).code).toBe(1);
    expect(running.stderr().trim()).toMatch(
      /^error: The node is running \(\d+ other session\(s\) are connected to .*\): stop it before db:rollback$/,
    );

    await node.kernel.stop();
    const top = height + 4;
    const above = rollback('--height', String(top + 1), '--yes');
    expect((await above.exited()).code).toBe(1);
    expect(above.stderr().trim()).toBe(
      `error: --height ${top + 1}: the chain's tip is ${top}; the new tip must be between 1 and ${top} (nothing changed)`,
    );
    const tooMany = rollback('--blocks', String(top), '--yes');
    expect((await tooMany.exited()).code).toBe(1);
    expect(tooMany.stderr()).toContain(`--blocks ${top}: the chain's tip is ${top}`);
    const zero = rollback('--height', '0', '--yes');
    expect((await zero.exited()).code).toBe(2);
    expect(zero.stderr()).toContain("expected a positive integer, got '0'");
    // No terminal to ask and no --yes: nothing is deleted.
    const unconfirmed = rollback('--height', '1');
    expect((await unconfirmed.exited()).code).toBe(1);
    expect(unconfirmed.stderr()).toContain('Not confirmed: nothing changed');
  }, 60_000);

  it('leaves the node at H with the wallets of a node that only reached H, the dropped transactions in its pool', async () => {
    // The refusals above changed nothing: the rollback starts from the same tip.
    const run = rollback('--blocks', '4', '--yes');
    expect((await run.exited()).code).toBe(0);
    expect(run.stdout()).toContain(
      `Rolled back from ${height + 4} to ${height}: 4 block(s) and 4 transaction(s) removed, 4 returned to the pool, 4 unsent webhook deliveries dropped`,
    );
    // The outbox keeps what it still owes for the blocks that remain.
    expect(await unsentHeights()).toEqual([height - 1, height]);

    restarted = await restartLedgerNode(node);
    const api = new ApiClient(`${restarted.cradle.apiServer.server.info.uri}/api`);
    expect((await api.get('/blocks/last')).data).toEqual(lastAtH);
    expect(await allWallets(api)).toEqual(walletsAtH);
    const pool = await api.get('/transactions/unconfirmed?limit=100');
    expect(pool.data.map((tx: { id: string }) => tx.id).sort()).toEqual(
      dropped
        .flat()
        .map((tx) => tx.id)
        .sort(),
    );
  }, 90_000);
});
