import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerNode, type LedgerNode } from '../support/ledger-node.js';
import { postgresSkipReason } from '../support/postgres.js';
import { scrape, valueOf } from '../support/prometheus.js';

describe.skipIf(postgresSkipReason)('GET /metrics', () => {
  let node: LedgerNode;
  let metrics: string;
  beforeAll(async () => {
    node = await startLedgerNode();
    metrics = node.api.replace(/\/api$/, '/metrics');
  }, 60_000);
  afterAll(() => node?.stop());

  it('is Prometheus text with the ledger, sync, API and process figures', async () => {
    await fetch(`${node.api}/blocks/last`);
    await fetch(`${node.api}/wallets/nobody`);
    const families = await scrape(metrics);
    expect(families.get('lni_chain_height')?.type).toBe('GAUGE');
    expect(valueOf(families, 'lni_chain_height')).toBe(1);
    expect(valueOf(families, 'lni_pool_transactions')).toBe(0);
    // The genesis block lies weeks of slots back: behind by the slot clock, as /node/status says.
    // The scrape came first; a slot may have passed before the status was asked.
    const status = (await (await fetch(`${node.api}/node/status`)).json()) as {
      data: { blocksCount: number };
    };
    const behind = valueOf(families, 'lni_sync_blocks_behind') ?? 0;
    expect(behind).toBeGreaterThan(0);
    expect(status.data.blocksCount - behind).toBeGreaterThanOrEqual(0);
    expect(status.data.blocksCount - behind).toBeLessThanOrEqual(1);
    expect(families.get('lni_block_apply_seconds')?.type).toBe('HISTOGRAM');
    // Route templates, not raw paths, with the status each request got.
    expect(
      valueOf(families, 'lni_api_requests_total', { route: '/api/blocks/last', status: '200' }),
    ).toBe(1);
    expect(
      valueOf(families, 'lni_api_requests_total', { route: '/api/wallets/{id}', status: '404' }),
    ).toBe(1);
    expect(families.get('lni_api_request_seconds')?.type).toBe('HISTOGRAM');
    // prom-client's process defaults.
    expect(valueOf(families, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(families.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('follows the chain: each forged block raises the height and is timed', async () => {
    const before = await scrape(metrics);
    const appliedBefore = Number(before.get('lni_block_apply_seconds')?.metrics[0]?.count);
    await node.forge([]);
    await node.forge([]);
    const after = await scrape(metrics);
    expect(valueOf(after, 'lni_chain_height')).toBe((valueOf(before, 'lni_chain_height') ?? 0) + 2);
    expect(Number(after.get('lni_block_apply_seconds')?.metrics[0]?.count)).toBe(appliedBefore + 2);
  });
});
