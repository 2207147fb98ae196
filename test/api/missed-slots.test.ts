import { keysFromPassphrase } from '@lni/crypto';
import type { EventMap } from '@lni/kernel';
import type { RoundKeeper } from '@lni/state';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  restartLedgerNode,
  startLedgerNode,
  TESTNET,
  type LedgerNode,
} from '../support/ledger-node.js';
import { postgresSkipReason } from '../support/postgres.js';
import { scrape, valueOf } from '../support/prometheus.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

type Missing = EventMap['forger.missing'];

// A network where one delegate's forger is stopped: every block is forged by the delegate of
// its slot, except that the withheld delegate's slots pass empty.
describe.skipIf(postgresSkipReason)('missed slots of a delegate whose forger is stopped', () => {
  let node: LedgerNode;
  let withheld: string;
  const events: Missing[] = [];
  const skipped: number[] = [];

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const get = async (base: string, path: string): Promise<any> => {
    const response = await fetch(`${base}${path}`);
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };

  beforeAll(async () => {
    node = await startLedgerNode();
    const secrets = await delegateSecrets(TESTNET);
    withheld = keysFromPassphrase(secrets[7] as string).publicKey.toString('hex');
    node.kernel.cradle.events.on('forger.missing', (payload) => {
      events.push(payload);
    });
    const roundKeeper = (node.kernel.cradle as unknown as { roundKeeper: RoundKeeper }).roundKeeper;
    const { blockProcessor } = node.kernel.cradle;
    await node.forge([]); // height 2: the gap after the genesis block is nobody's
    // Two rounds and a half of 51 slots: the withheld delegate has at least two slots.
    while ((blockProcessor.lastBlock?.height ?? 0) < 130) {
      const last = blockProcessor.lastBlock!;
      const height = last.height + 1;
      let slot = roundKeeper.slotOf(last.timestamp, last.height) + 1;
      while (roundKeeper.forgerAt(height, roundKeeper.slotTime(slot, height)) === withheld) {
        skipped.push(slot);
        slot++;
      }
      await node.forge([], roundKeeper.slotTime(slot, height));
    }
    // Listeners run after the block is applied; let the last ones finish.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }, 120_000);
  afterAll(() => node?.stop());

  it('counts the missed slots in the delegate object, with productivity, and none for the others', async () => {
    expect(skipped.length).toBeGreaterThanOrEqual(2);
    const delegate = (await get(node.api, `/delegates/${withheld}`)).data;
    expect(delegate.blocks).toMatchObject({ produced: 0, missed: skipped.length });
    expect(delegate.production.productivity).toBe(0);
    const forging = (await get(node.api, '/delegates?blocks.produced.from=1&limit=100')).data as {
      blocks: { missed: number };
      production: { productivity: number };
    }[];
    expect(forging.length).toBeGreaterThan(40);
    for (const other of forging) {
      expect(other.blocks.missed).toBe(0);
      expect(other.production.productivity).toBe(100);
    }
  });

  it('filters and orders delegates by blocks.missed and production.productivity', async () => {
    const missing = await get(node.api, '/delegates?blocks.missed.from=1');
    expect(missing.data.map((d: { publicKey: string }) => d.publicKey)).toEqual([withheld]);
    const worst = await get(node.api, '/delegates?orderBy=production.productivity:asc&limit=1');
    expect(worst.data[0].publicKey).toBe(withheld);
    const mostMissed = await get(node.api, '/delegates?orderBy=blocks.missed:desc&limit=1');
    expect(mostMissed.data[0].publicKey).toBe(withheld);
    const belowHalf = await get(node.api, '/delegates?production.productivity.to=50');
    expect(belowHalf.meta.totalCount).toBeGreaterThanOrEqual(1);
    expect(
      (belowHalf.data as { production: { productivity: number } }[]).every(
        (d) => d.production.productivity <= 50,
      ),
    ).toBe(true);
  });

  it('lists the missed slots, newest first, paginated', async () => {
    const page = await get(node.api, `/delegates/${withheld}/missed?limit=1`);
    expect(page.meta.totalCount).toBe(skipped.length);
    expect(page.meta.pageCount).toBe(skipped.length);
    const newest = skipped.at(-1) as number;
    expect(page.data[0]).toMatchObject({ slot: newest, round: expect.any(Number) });
    expect(page.data[0].timestamp).toMatchObject({
      epoch: expect.any(Number),
      unix: expect.any(Number),
      human: expect.any(String),
    });
    const all = await get(node.api, `/delegates/${withheld}/missed?limit=100`);
    expect(all.data.map((m: { slot: number }) => m.slot)).toEqual([...skipped].reverse());
    expect((await fetch(`${node.api}/delegates/${withheld}/missed?limit=0`)).status).toBe(422);
  });

  it('publishes forger.missing for each, and counts them in lni_forger_missed_slots_total', async () => {
    expect(events.map((event) => event.slot)).toEqual(skipped);
    expect(events.every((event) => event.delegate === withheld)).toBe(true);
    expect(events[0]).toEqual({
      height: expect.any(Number),
      round: expect.any(Number),
      slot: skipped[0],
      timestamp: expect.any(Number),
      delegate: withheld,
    });
    const username = (await get(node.api, `/delegates/${withheld}`)).data.username as string;
    const families = await scrape(node.api.replace(/\/api$/, '/metrics'));
    expect(valueOf(families, 'lni_forger_missed_slots_total', { delegate: username })).toBe(
      skipped.length,
    );
  });

  it('forgets the slots of a reverted block', async () => {
    const { blockProcessor } = node.kernel.cradle;
    const height = blockProcessor.lastBlock!.height;
    const lastMissed = (await get(node.api, `/delegates/${withheld}/missed?limit=1`)).data[0];
    await blockProcessor.revertTo(lastMissed.height - 1);
    const after = await get(node.api, `/delegates/${withheld}/missed?limit=100`);
    expect(after.meta.totalCount).toBe(skipped.length - 1);
    expect((await get(node.api, `/delegates/${withheld}`)).data.blocks.missed).toBe(
      skipped.length - 1,
    );
    expect(blockProcessor.lastBlock!.height).toBeLessThan(height);
    skipped.pop();
  });

  it('rebuilds the table from the chain at boot when it lost its rows', async () => {
    const client = new pg.Client({
      host: '127.0.0.1',
      port: 5432,
      user: 'postgres',
      database: node.databaseName,
    });
    await node.kernel.stop();
    await client.connect();
    try {
      await client.query('DELETE FROM missed_slots');
    } finally {
      await client.end();
    }
    const restarted = await restartLedgerNode(node);
    try {
      const api = `${restarted.cradle.apiServer.server.info.uri}/api`;
      const all = await get(api, `/delegates/${withheld}/missed?limit=100`);
      expect(all.data.map((m: { slot: number }) => m.slot)).toEqual([...skipped].reverse());
      expect((await get(api, `/delegates/${withheld}`)).data.blocks.missed).toBe(skipped.length);
      expect(restarted.logs.some((record) => record.msg === 'Missed slots stored')).toBe(true);
    } finally {
      await restarted.stop();
    }
  }, 60_000);
});
