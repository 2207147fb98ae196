import type { TestKernel } from '@lni/kernel/testing';
import {
  addressFromPassphrase,
  forgeBlock,
  keysFromPassphrase,
  transfer,
  type Milestones,
  type TransactionData,
} from '@lni/crypto';
import type { RoundKeeper } from '@lni/state';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import {
  restartLedgerNode,
  startLedgerNode,
  TESTNET,
  type LedgerNode,
} from '../support/ledger-node.js';
import { postgresSkipReason } from '../support/postgres.js';
import { scrape, valueOf } from '../support/prometheus.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

/** Delivery timing short enough for a test: retries from 200 ms, at most 1 s apart. */
const FAST = { firstRetryMs: 200, maxRetryMs: 1_000, pollMs: 100, timeoutMs: 2_000 };

interface Received {
  readonly path: string | undefined;
  readonly delivery: string;
  readonly headerDelivery: string | undefined;
  readonly signature: string | undefined;
  readonly authorization: string | undefined;
  readonly body: string;
}

/** A webhook receiver on loopback that answers 200 and keeps what it got. */
function receiver(port: number): Promise<{ server: Server; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({
        path: request.url,
        delivery: (JSON.parse(body) as { delivery: string }).delivery,
        headerDelivery: request.headers['x-lni-delivery'] as string | undefined,
        signature: request.headers['x-lni-signature'] as string | undefined,
        authorization: request.headers.authorization,
        body,
      });
      response.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve({ server, received })),
  );
}

async function testnetSecrets(): Promise<string[]> {
  return await delegateSecrets(TESTNET);
}

/** The next block of a node, forged by its slot's delegate. */
async function nextBlock(kernel: TestKernel, transactions: readonly TransactionData[] = []) {
  const secrets = await testnetSecrets();
  const { roundKeeper, milestones } = kernel.cradle as unknown as {
    roundKeeper: RoundKeeper;
    milestones: Milestones;
  };
  const last = kernel.cradle.blockProcessor.lastBlock!;
  const height = last.height + 1;
  const at = roundKeeper.slotTime(roundKeeper.slotOf(last.timestamp, last.height) + 1, height);
  const forger = roundKeeper.forgerAt(height, at);
  const secret = secrets.find((s) => keysFromPassphrase(s).publicKey.toString('hex') === forger);
  if (secret === undefined) throw new Error(`no secret for ${forger}`);
  return forgeBlock({
    transactions,
    previousBlock: last,
    timestamp: at,
    keys: keysFromPassphrase(secret),
    milestones,
  });
}

describe.skipIf(postgresSkipReason)('webhooks', () => {
  let node: LedgerNode;
  let restarted: TestKernel | undefined;
  let port: number;
  let receiving: { server: Server; received: Received[] } | undefined;
  let webhook: { id: string; secret: string; token: string };

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const call = async (base: string, method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${base}${path}`, {
      method,
      ...(body !== undefined && {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  /** The same database and directories, started again (a node restart). */
  const restart = (webhooks: Record<string, unknown>) => restartLedgerNode(node, { webhooks });
  const apiOf = (kernel: TestKernel) => `${kernel.cradle.apiServer.server.info.uri}/api`;

  beforeAll(async () => {
    port = await freePort();
    node = await startLedgerNode([], { webhooks: { ...FAST, disableAfterMs: 600_000 } });
  }, 60_000);
  afterAll(async () => {
    await restarted?.stop();
    await new Promise((resolve) => receiving?.server.close(resolve));
    await node?.stop();
  });

  it('refuses a webhook with a bad operator or target, naming the field', async () => {
    const badOperator = await call(node.api, 'POST', '/webhooks', {
      event: 'block.applied',
      target: 'http://127.0.0.1:1/hook',
      conditions: [{ key: 'block.height', condition: 'almost', value: 3 }],
    });
    expect(badOperator.status).toBe(422);
    expect(badOperator.body.message).toContain('conditions[0].condition');
    const badTarget = await call(node.api, 'POST', '/webhooks', {
      event: 'block.applied',
      target: 'ftp://example.com',
    });
    expect(badTarget.status).toBe(422);
    expect(badTarget.body.message).toContain('target');
  });

  it('is managed only from the whitelist (loopback)', async () => {
    const response = await node.kernel.cradle.apiServer.server.inject({
      url: '/api/webhooks',
      remoteAddress: '10.1.2.3',
    });
    expect(response.statusCode).toBe(403);
    expect(response.result).toMatchObject({
      message: "10.1.2.3 is not in the API plugin's webhooks.whitelist",
    });
  });

  it('creates a webhook, gives its secret once, and keeps retrying while the receiver is down', async () => {
    const created = await call(node.api, 'POST', '/webhooks', {
      event: 'block.applied',
      target: `http://127.0.0.1:${port}/hook`,
      conditions: [{ key: 'height', condition: 'gte', value: 3 }],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ event: 'block.applied', enabled: true });
    expect(created.body.data.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(created.body.data.token).toMatch(/^[0-9a-f]{64}$/);
    webhook = created.body.data;
    const shown = await call(node.api, 'GET', `/webhooks/${webhook.id}`);
    expect(shown.body.data.secret).toBeUndefined();
    expect(shown.body.data.token).toBeUndefined();

    for (let i = 0; i < 5; i++) await node.forge([]); // heights 2..6: 3..6 match
    const failing = await eventually(
      async () => {
        const page = (await call(node.api, 'GET', `/webhooks/${webhook.id}/deliveries`)).body;
        const tried = page.data.filter((d: { attempts: unknown[] }) => d.attempts.length >= 2);
        return page.meta.totalCount === 4 && tried.length === 4 ? page : undefined;
      },
      20_000,
      'four deliveries, each tried twice',
    );
    for (const delivery of failing.data) {
      expect(delivery.status).toBe('pending');
      expect(delivery.attempts[0]).toMatchObject({ statusCode: null });
      expect(delivery.attempts[0].error).toContain('ECONNREFUSED');
    }
    expect(
      (await call(node.api, 'GET', `/webhooks/${webhook.id}`)).body.data.failingSince,
    ).not.toBeNull();
  }, 40_000);

  it('after a restart with deliveries pending, the receiver back up gets each exactly once, signed', async () => {
    await node.kernel.stop();
    receiving = await receiver(port);
    restarted = await restart({ ...FAST, disableAfterMs: 600_000 });
    const api = apiOf(restarted);
    await eventually(
      async () => (receiving!.received.length >= 4 ? true : undefined),
      20_000,
      'four deliveries at the receiver',
    );
    // Time for a duplicate, if there were to be one.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const { received } = receiving!;
    const ids = received.map((r) => r.delivery);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(4);
    // ARK's body: `data` is the block's own data.
    const heights = received
      .map((r) => (JSON.parse(r.body) as { data: { height: number } }).data.height)
      .sort((a, b) => a - b);
    expect(heights).toEqual([3, 4, 5, 6]);
    for (const r of received) {
      const expected = `sha256=${createHmac('sha256', webhook.secret).update(r.body).digest('hex')}`;
      expect(r.signature).toBe(expected);
      expect(r.headerDelivery).toBe(r.delivery);
      // ARK's Authorization: the first half of the token shown at creation.
      expect(r.authorization).toBe(webhook.token.slice(0, 32));
      expect(JSON.parse(r.body)).toMatchObject({
        timestamp: expect.any(Number),
        event: 'block.applied',
        data: { id: expect.any(String), idHex: expect.any(String), reward: expect.any(String) },
      });
    }
    const page = (await call(api, 'GET', `/webhooks/${webhook.id}/deliveries`)).body;
    expect(page.data.map((d: { status: string }) => d.status)).toEqual(Array(4).fill('delivered'));
    for (const delivery of page.data) {
      expect(delivery.attempts.at(-1)).toMatchObject({ statusCode: 200, error: null });
    }
    expect((await call(api, 'GET', `/webhooks/${webhook.id}`)).body.data.failingSince).toBeNull();
    const families = await scrape(api.replace(/\/api$/, '/metrics'));
    expect(valueOf(families, 'lni_webhook_deliveries_total', { result: 'delivered' })).toBe(4);
  }, 60_000);

  it('posts a transaction.applied to a webhook whose ARK condition holds on the transaction', async () => {
    const api = apiOf(restarted!);
    const [secret] = await testnetSecrets();
    const deposit = addressFromPassphrase('a deposit address', 23);
    const created = await call(api, 'POST', '/webhooks', {
      event: 'transaction.applied',
      target: `http://127.0.0.1:${port}/deposits`,
      conditions: [{ key: 'recipientId', condition: 'eq', value: deposit }],
    });
    expect(created.status).toBe(201);
    const sender = (await call(api, 'GET', `/wallets/${addressFromPassphrase(secret!, 23)}`)).body
      .data as { nonce: string };
    const pay = (recipient: string, nonce: bigint) =>
      transfer({ network: 23 })
        .recipientId(recipient)
        .amount(1_500_000_000)
        .vendorField('order 7')
        .nonce(nonce)
        .sign(keysFromPassphrase(secret!))
        .build();
    const nonce = BigInt(sender.nonce);
    const paid = pay(deposit, nonce + 1n);
    const other = pay(addressFromPassphrase('someone else', 23), nonce + 2n);
    await restarted!.cradle.blockProcessor.process(await nextBlock(restarted!, [paid, other]));

    const arrived = await eventually(
      async () => {
        const got = receiving!.received.filter((r) => r.path === '/deposits');
        return got.length > 0 ? got : undefined;
      },
      10_000,
      'the deposit delivery',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiving!.received.filter((r) => r.path === '/deposits')).toHaveLength(1);
    const body = JSON.parse(arrived[0]!.body);
    expect(body).toMatchObject({
      timestamp: expect.any(Number),
      event: 'transaction.applied',
      data: {
        id: paid.id,
        recipientId: deposit,
        amount: '1500000000',
        vendorField: 'order 7',
        blockHeight: expect.any(Number),
      },
    });
    expect(arrived[0]!.authorization).toBe((created.body.data.token as string).slice(0, 32));
  }, 30_000);

  it("does not freeze on the issue's backtracking pattern: the block applies, the API answers", async () => {
    const api = apiOf(restarted!);
    const refused = await call(api, 'POST', '/webhooks', {
      event: 'transaction.applied',
      target: `http://127.0.0.1:${port}/never`,
      conditions: [{ key: 'vendorField', condition: 'regexp', value: '(a)\\1' }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('is not a pattern RE2 takes');
    const created = await call(api, 'POST', '/webhooks', {
      event: 'transaction.applied',
      target: `http://127.0.0.1:${port}/patterns`,
      conditions: [{ key: 'vendorField', condition: 'regexp', value: '^(a+)+$' }],
    });
    expect(created.status).toBe(201);
    const [, secret] = await testnetSecrets();
    const sender = (await call(api, 'GET', `/wallets/${addressFromPassphrase(secret!, 23)}`)).body
      .data as { nonce: string };
    const withVendorField = (vendorField: string, nonce: bigint) =>
      transfer({ network: 23 })
        .recipientId(addressFromPassphrase('a pattern test', 23))
        .amount(1)
        .vendorField(vendorField)
        .nonce(nonce)
        .sign(keysFromPassphrase(secret!))
        .build();
    const nonce = BigInt(sender.nonce);
    const evil = withVendorField(`${'a'.repeat(48)}!`, nonce + 1n);
    const plain = withVendorField('aaaa', nonce + 2n);

    const started = performance.now();
    await restarted!.cradle.blockProcessor.process(await nextBlock(restarted!, [evil, plain]));
    expect((await call(api, 'GET', '/blockchain')).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(5_000);
    const arrived = await eventually(
      async () => {
        const got = receiving!.received.filter((r) => r.path === '/patterns');
        return got.length > 0 ? got : undefined;
      },
      10_000,
      'the delivery of the matching transfer',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiving!.received.filter((r) => r.path === '/patterns')).toHaveLength(1);
    expect(JSON.parse(arrived[0]!.body).data).toMatchObject({ id: plain.id, vendorField: 'aaaa' });
  }, 30_000);

  it('disables a webhook whose target failed for longer than disableAfterMs, saying so', async () => {
    const api = apiOf(restarted!);
    const dead = (
      await call(api, 'POST', '/webhooks', {
        event: 'block.applied',
        target: `http://127.0.0.1:${await freePort()}/gone`,
      })
    ).body.data as { id: string };
    await restarted!.cradle.blockProcessor.process(await nextBlock(restarted!));
    await eventually(
      async () =>
        (await call(api, 'GET', `/webhooks/${dead.id}`)).body.data.failingSince ? true : undefined,
      10_000,
      'a failed attempt',
    );
    await restarted!.stop();
    restarted = await restart({ ...FAST, disableAfterMs: 500 });
    const shown = await eventually(
      async () => {
        const data = (await call(apiOf(restarted!), 'GET', `/webhooks/${dead.id}`)).body.data;
        return data.enabled === false ? data : undefined;
      },
      10_000,
      'the webhook disabled',
    );
    expect(shown.disabledReason).toMatch(/^disabled at .*: every delivery failed since /);
    // The one that works is still enabled.
    expect(
      (await call(apiOf(restarted!), 'GET', `/webhooks/${webhook.id}`)).body.data.enabled,
    ).toBe(true);
  }, 60_000);

  it('updates and deletes a webhook', async () => {
    const api = apiOf(restarted!);
    const updated = await call(api, 'PUT', `/webhooks/${webhook.id}`, {
      event: 'transaction.applied',
      target: `http://127.0.0.1:${port}/other`,
      enabled: false,
      conditions: [{ key: 'amount', condition: 'between', value: { min: 1, max: 10 } }],
    });
    expect(updated.body.data).toMatchObject({ event: 'transaction.applied', enabled: false });
    expect((await call(api, 'DELETE', `/webhooks/${webhook.id}`)).status).toBe(204);
    expect((await call(api, 'GET', `/webhooks/${webhook.id}`)).status).toBe(404);
  });
});
