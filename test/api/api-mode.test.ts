import apiPlugin from '@lni/api';
import { addressFromPassphrase, transactionToJson, transfer } from '@lni/crypto';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { startLedgerNode, TESTNET, type LedgerNode } from '../support/ledger-node.js';
import { postgresSkipReason } from '../support/postgres.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

// Bodies are compared whole with what the core node answers.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * An api node as `kernel start --mode api` runs it, without the SQL ledger (its own package's
 * tests and the replica e2e test cover that): the database read-only, the API with upstreams.
 */
async function startApiNode(core: LedgerNode, apiOptions: object): Promise<TestKernel> {
  return startTestKernel({
    mode: 'api',
    plugins: [
      {
        plugin: databasePlugin as Plugin<object>,
        options: { connection: core.databaseConnection, readOnly: true },
      },
      {
        plugin: apiPlugin as Plugin<object>,
        options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false }, ...apiOptions },
      },
    ],
  });
}

const apiOf = (node: TestKernel) => `${node.cradle.apiServer.server.info.uri}/api`;

describe.skipIf(postgresSkipReason)('the API on an api node (no state, no pool)', () => {
  let core: LedgerNode;
  let apiNode: TestKernel;
  let stranded: TestKernel;
  let silent: string;
  let stalled: string;
  let hanging: Server;
  let sender: string;

  beforeAll(async () => {
    core = await startLedgerNode();
    // Nothing listens there: the first upstream does not answer, the second (the core) does.
    silent = `http://127.0.0.1:${await freePort()}`;
    apiNode = await startApiNode(core, {
      upstream: [silent, core.api.replace(/\/api$/, '')],
      maxLagBlocks: 2,
    });
    // One accepts connections and never answers: skipped after upstreamTimeoutMs.
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const { port } = hanging.address() as AddressInfo;
    stalled = `http://127.0.0.1:${port}`;
    stranded = await startApiNode(core, { upstream: [silent, stalled], upstreamTimeoutMs: 300 });
    sender = (await delegateSecrets(TESTNET))[0] as string;
  }, 90_000);
  afterAll(async () => {
    await stranded?.stop();
    hanging?.closeAllConnections();
    await new Promise((resolve) => hanging?.close(resolve));
    await apiNode?.stop();
    await core?.stop();
  });

  const post = (api: string, path: string, body: unknown) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const answer = async (response: Response) => ({
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as Json,
  });

  it('forwards a submission to the first upstream that answers, answering what it answered', async () => {
    const { pubKeyHash } = (core.kernel.cradle.networkConfig as { network: { pubKeyHash: number } })
      .network;
    const wallet = await answer(
      await fetch(`${core.api}/wallets/${addressFromPassphrase(sender, pubKeyHash)}`),
    );
    const payment = transfer({ network: pubKeyHash, milestone: core.milestones.at(2) })
      .recipientId(addressFromPassphrase('api mode recipient', pubKeyHash))
      .amount(12_345)
      .nonce(BigInt(wallet.body.data.nonce as string) + 1n)
      .sign(sender)
      .build();
    const posted = await post(apiOf(apiNode), '/transactions', {
      transactions: [transactionToJson(payment)],
    });
    expect(posted.headers.get('x-block-height')).toBe('0');
    const forwarded = await answer(posted);
    expect(forwarded.status).toBe(200);
    expect(forwarded.body.data.accept).toEqual([payment.id]);

    // It is in the core node's pool, and the api node's pool routes show that pool.
    const fromCore = await answer(
      await fetch(`${core.api}/transactions/unconfirmed/${payment.id}`),
    );
    const fromApi = await answer(
      await fetch(`${apiOf(apiNode)}/transactions/unconfirmed/${payment.id}`),
    );
    expect(fromCore.status).toBe(200);
    expect(fromApi).toEqual(fromCore);
    const list = await answer(await fetch(`${apiOf(apiNode)}/transactions/unconfirmed?limit=5`));
    expect(list).toEqual(await answer(await fetch(`${core.api}/transactions/unconfirmed?limit=5`)));

    // A refusal is the upstream's own, status and body.
    const again = { transactions: [transactionToJson(payment)] };
    const refused = await answer(await post(apiOf(apiNode), '/transactions', again));
    expect(refused).toEqual(await answer(await post(core.api, '/transactions', again)));
    const malformed = { transactions: [] };
    const bad = await answer(await post(apiOf(apiNode), '/transactions', malformed));
    expect(bad.status).toBe(422);
    expect(bad).toEqual(await answer(await post(core.api, '/transactions', malformed)));
  });

  it('forwards webhook routes to the writer, which stores them (the replica is read-only)', async () => {
    const created = await answer(
      await post(apiOf(apiNode), '/webhooks', {
        event: 'block.applied',
        target: 'http://127.0.0.1:9/hook',
        enabled: false,
        conditions: [],
      }),
    );
    expect(created.status).toBe(201);
    const listed = await answer(await fetch(`${core.api}/webhooks`));
    expect(listed.body.data.map((webhook: Json) => webhook.id)).toContain(created.body.data.id);
    expect(await answer(await fetch(`${apiOf(apiNode)}/webhooks`))).toEqual(listed);
    expect(apiNode.app.container.hasRegistration('apiWebhooks')).toBe(false);
  });

  it('answers 503 with Retry-After, naming each upstream and why, when none answers', async () => {
    const response = await post(apiOf(stranded), '/transactions', { transactions: [{}] });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    const { message } = (await response.json()) as { message: string };
    expect(message).toBe(
      `no upstream node answered: ${silent}: ECONNREFUSED; ${stalled}: no answer in time`,
    );
  });

  it('takes itself out on /health past maxLagBlocks behind the writer, back in when it is not', async () => {
    const notify = async (height: number) => {
      const client = new pg.Client({
        host: core.databaseConnection.host,
        port: core.databaseConnection.port,
        user: core.databaseConnection.username,
        database: core.databaseConnection.database,
      });
      await client.connect();
      await client.query(`SELECT pg_notify('lni_block_committed', $1)`, [
        JSON.stringify({ height, id: 'x' }),
      ]);
      await client.end();
    };
    const health = async () =>
      answer(await fetch(`${apiOf(apiNode).replace(/\/api$/, '')}/health`));
    await eventually(
      async () => (apiNode.cradle.commitSignals.connected ? true : undefined),
      10_000,
      'the api node listening for commits',
    );
    await notify(3);
    const out = await eventually(
      async () => {
        const report = await health();
        return report.status === 503 ? report : undefined;
      },
      10_000,
      '/health to fail',
    );
    expect(JSON.stringify(out.body)).toContain(
      '3 blocks behind the writer (height 0, writer 3); maxLagBlocks is 2',
    );
    await notify(2);
    const back = await eventually(
      async () => {
        const report = await health();
        return report.status === 200 ? report : undefined;
      },
      10_000,
      '/health to pass',
    );
    expect(JSON.stringify(back.body)).toContain('"writerHeight":2');
  });
});
