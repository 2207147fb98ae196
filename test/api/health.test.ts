import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/free-port.js';
import { startLedgerNode, type LedgerNode } from '../support/ledger-node.js';
import { adminQuery, postgresSkipReason } from '../support/postgres.js';

describe.skipIf(postgresSkipReason)('GET /health', () => {
  let node: LedgerNode;
  let health: string;
  beforeAll(async () => {
    node = await startLedgerNode();
    health = node.api.replace(/\/api$/, '/health');
  }, 60_000);
  afterAll(async () => {
    // Whatever happened, the database takes connections again before it is dropped.
    await adminQuery(`ALTER DATABASE ${node.databaseName} ALLOW_CONNECTIONS true`).catch(() => {});
    await node?.stop();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const probe = async (): Promise<{ status: number; body: any }> => {
    const response = await fetch(health);
    return { status: response.status, body: await response.json() };
  };

  it('is 503 naming sync while the last block is the genesis block, weeks old', async () => {
    const { status, body } = await probe();
    expect(status).toBe(503);
    expect(body.status).toBe('failing');
    expect(body.failing).toEqual(['sync']);
    expect(body.checks.database).toEqual({ ok: true });
    expect(body.checks.sync.reason).toMatch(/^not synced: \d+ blocks behind at 1$/);
  });

  it('is 200 with every check passing once the node forges in the current slot', async () => {
    const block = await node.forgeNow();
    const { status, body } = await probe();
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'ok',
      failing: [],
      checks: { database: { ok: true }, sync: { ok: true, height: block.height, behind: 0 } },
    });
  });

  it('turns 503 naming the database when it stops taking connections, and 200 once it is back', async () => {
    await adminQuery(`ALTER DATABASE ${node.databaseName} ALLOW_CONNECTIONS false`);
    await adminQuery(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${node.databaseName}'`,
    );
    const down = await probe();
    expect(down.status).toBe(503);
    expect(down.body.failing).toEqual(['database']);
    expect(down.body.checks.database.reason).toContain(node.databaseName);

    await adminQuery(`ALTER DATABASE ${node.databaseName} ALLOW_CONNECTIONS true`);
    await eventually(
      async () => ((await probe()).body.checks.database.ok === true ? true : undefined),
      20_000,
      'the database check to pass again',
    );
    // The node writes again: the next slot's block is stored, and the node is healthy.
    await node.forge([]);
    const up = await probe();
    expect(up.status).toBe(200);
    expect(up.body.failing).toEqual([]);
  }, 40_000);
});
