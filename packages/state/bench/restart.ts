/**
 * Restart benchmark (issue 29): a node's start on a stored chain of RESTART_TX transactions
 * (default 200,000; the issue's size is RESTART_TX=1000000 RESTART_WALLETS=100000) to
 * RESTART_WALLETS recipients (default 100,000), by the built database, state and API plugins in
 * a kernel on PostgreSQL: once replaying the chain (`walletTable.load: false`, the baseline, in
 * the same run) and once loading the wallets table. For each it reports the time from the start
 * to the kernel started, to the API's first answer (GET /api/blockchain), and to the next block
 * forged on top (as the slot's delegate would: the forging source's transactions, assembled,
 * signed and accepted by the chain; a real forger also waits for its slot, which a restart does
 * not change), with the loaded figures beside the target and as ratios to the rebuilt ones.
 * Run: npx tsx packages/state/bench/restart.ts (after `npm run build`).
 *
 * Reuse, so that a run does not store the chain and replay it again: RESTART_DB=<name> keeps the
 * local PostgreSQL database `name` (created when missing; drop it yourself with DROP DATABASE);
 * when it already holds a table written by an earlier run (a head row), the chain is not stored
 * and the first start is skipped (the size variables are then those of the run that stored it).
 * RESTART_REBUILT=0 skips the rebuilt baseline (no ratios); RESTART_LOADED_RUNS=n starts the
 * loaded node n times (default 1), each reported; RESTART_TIMELINE=1 also prints what each
 * loaded start logged, at ms since its start (where the wall time went).
 */
import apiPlugin from '@lni/api';
import { keysFromPassphrase } from '@lni/crypto';
import databasePlugin from '@lni/database';
import { cryptoBlockAssembler } from '@lni/forger';
import type { Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import type { Chain, ForgingSource } from '@lni/state/contracts';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { statePlugin } from '../dist/plugin.js';
import type { BlockProcessor } from '../src/blocks/block-processor.js';
import { openKeptTestStore, openTestStore } from '../src/blocks/__fixtures__/test-database.js';
import type { RoundKeeper } from '../src/rounds/round-keeper.js';
import { generated, milestones, storeGeneratedChain } from './generated-chain.js';

const TOTAL_TX = Number(process.env.RESTART_TX ?? 200_000);
const RECIPIENTS = Number(process.env.RESTART_WALLETS ?? 100_000);
const TARGET_LOADED_S = 3;
const KEPT_DB = process.env.RESTART_DB;
const WITH_REBUILT = process.env.RESTART_REBUILT !== '0';
const LOADED_RUNS = Number(process.env.RESTART_LOADED_RUNS ?? 1);
const TIMELINE = process.env.RESTART_TIMELINE === '1';

const delegateKeys = generated.secrets.map((secret) => keysFromPassphrase(secret));
const assemble = cryptoBlockAssembler(milestones);

const db = KEPT_DB ? await openKeptTestStore(KEPT_DB) : await openTestStore();
const root = await mkdtemp(join(tmpdir(), 'lni-restart-bench-'));
try {
  if (!db.connection) throw new Error('the restart bench needs the PostgreSQL server');
  console.log('restart bench:');
  const [head] = (await db.database.manager.query(
    'SELECT height FROM state_head WHERE id = 1',
  )) as { height: number }[];
  if (head) console.log(`reusing database ${KEPT_DB} (table at height ${head.height})`);
  else await storeGeneratedChain(db.store, TOTAL_TX, RECIPIENTS);
  const crypto = join(root, 'config', 'crypto');
  await mkdir(crypto, { recursive: true });
  await writeFile(join(crypto, 'network.json'), JSON.stringify(generated.network));
  await writeFile(join(crypto, 'milestones.json'), JSON.stringify(generated.milestones));
  await writeFile(join(crypto, 'genesisBlock.json'), JSON.stringify(generated.genesisBlock));
  const connection = db.connection;

  /** Seconds from `started` to now. */
  const since = (started: number) => (performance.now() - started) / 1000;

  /**
   * Starts a node, asks its API once, forges the next block on it, and stops it; returns the
   * seconds from the start to each and what the node logged.
   */
  const boot = async (load: boolean) => {
    const started = performance.now();
    const startedAt = Date.now();
    const cpuAtStart = process.cpuUsage();
    const kernel = await startTestKernel({
      plugins: [
        { plugin: databasePlugin as Plugin<object>, options: { connection } },
        {
          plugin: statePlugin as Plugin<object>,
          options: { verificationWorkers: 0, walletTable: { load } },
        },
        {
          plugin: apiPlugin as Plugin<object>,
          options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false } },
        },
      ],
      paths: { config: join(root, 'config'), data: join(root, 'data'), log: join(root, 'log') },
    });
    try {
      const ready = since(started);
      const port = Number(kernel.cradle.apiServer.server.info.port);
      const answer = await fetch(`http://127.0.0.1:${port}/api/blockchain`);
      if (!answer.ok) throw new Error(`the API answered ${answer.status}`);
      await answer.arrayBuffer();
      const api = since(started);
      // The node's own CPU to that answer (all its threads; PostgreSQL's not counted): steadier
      // than wall time on a shared machine.
      const { user, system } = process.cpuUsage(cpuAtStart);
      const apiCpu = (user + system) / 1e6;
      await forgeNext(kernel.cradle as unknown as ForgingNode);
      const forged = since(started);
      return { ready, api, apiCpu, forged, logs: kernel.logs, startedAt };
    } finally {
      await kernel.stop();
    }
  };

  // The first start writes the rounds and missed slots a stored chain lacks, and the table.
  if (!head) {
    const first = await boot(false);
    console.log(`first start (rebuild, rounds stored, table written): ${first.ready.toFixed(1)} s`);
  }
  const rebuilt = WITH_REBUILT ? await boot(false) : undefined;
  const line = (logs: Awaited<ReturnType<typeof boot>>['logs'], msg: string) =>
    logs.find((r) => r.msg === msg);
  if (rebuilt) {
    const written = line(rebuilt.logs, 'Wallet table written');
    console.log(
      `restart rebuilt (baseline): started ${rebuilt.ready.toFixed(2)} s, API answering ` +
        `${rebuilt.api.toFixed(2)} s, next block forged ${rebuilt.forged.toFixed(2)} s; ` +
        `of which the full table write ${(Number(written?.ms) / 1000).toFixed(2)} s`,
    );
  }
  /** Each plugin's boot in ms, as the kernel logs it ("Plugin started"). */
  const pluginTimes = (logs: Awaited<ReturnType<typeof boot>>['logs']) =>
    Object.fromEntries(
      logs.filter((r) => r.msg === 'Plugin started').map((r) => [String(r.plugin), r.ms]),
    );
  const ratio = (mine: number, baseline: number | undefined) =>
    baseline === undefined ? 'n/a' : (mine / baseline).toFixed(3);
  for (let run = 1; run <= LOADED_RUNS; run++) {
    const loaded = await boot(true);
    const state = line(loaded.logs, 'State loaded');
    if (!state) throw new Error('the table was not loaded');
    console.log(
      `restart loaded${LOADED_RUNS > 1 ? ` (run ${run})` : ''}: API answering ` +
        `${loaded.api.toFixed(2)} s (target ≤ ${TARGET_LOADED_S} s, ratio to rebuilt ` +
        `${ratio(loaded.api, rebuilt?.api)}; node CPU ${loaded.apiCpu.toFixed(2)} s), next block forged ${loaded.forged.toFixed(2)} s ` +
        `(ratio ${ratio(loaded.forged, rebuilt?.forged)}), started ${loaded.ready.toFixed(2)} s; ` +
        `state loaded in ${(Number(state.ms) / 1000).toFixed(2)} s (ms by phase ` +
        `${JSON.stringify(state.phases)}), ${state.wallets} wallets; ms by plugin ` +
        JSON.stringify(pluginTimes(loaded.logs)),
    );
    if (TIMELINE) {
      // Where the wall time went: each record the node logged, at ms since the start.
      for (const record of loaded.logs) {
        const at = (record.time as Date).getTime() - loaded.startedAt;
        const { msg, plugin, ms, phases } = record;
        console.log(
          `  ${String(at).padStart(6)} ms ${String(plugin ?? '')} ${String(msg)}` +
            (ms === undefined ? '' : ` ms=${String(ms)}`) +
            (phases ? ` ${JSON.stringify(phases)}` : ''),
        );
      }
    }
  }
  const [size] = (await db.database.manager.query(
    `SELECT pg_total_relation_size('wallets')::bigint AS bytes, count(*)::bigint AS wallets FROM wallets`,
  )) as { bytes: string; wallets: string }[];
  console.log(
    `wallets table: ${size?.wallets} wallets, ${Math.round(Number(size?.bytes) / 2 ** 20)} MiB ` +
      `with its indexes, ${Math.round(Number(size?.bytes) / Number(size?.wallets))} bytes per wallet`,
  );
} finally {
  await db.close();
  await rm(root, { recursive: true, force: true });
}

interface ForgingNode {
  readonly blockProcessor: BlockProcessor;
  readonly roundKeeper: RoundKeeper;
  readonly forgingSource: ForgingSource;
  readonly chain: Chain;
}

/** The block of the slot after the tip, by its delegate, with what the pool offers, accepted. */
async function forgeNext({ blockProcessor, roundKeeper, forgingSource, chain }: ForgingNode) {
  const last = blockProcessor.lastBlock;
  if (!last) throw new Error('no chain to forge on');
  const height = last.height + 1;
  const timestamp = roundKeeper.slotTime(roundKeeper.slotOf(last.timestamp, height) + 1, height);
  const delegate = roundKeeper.forgerAt(height, timestamp);
  const keys = delegateKeys.find((pair) => pair.publicKey.toString('hex') === delegate);
  if (!keys) throw new Error(`no keys for the slot's delegate ${delegate}`);
  const block = assemble({
    keys,
    previousBlock: { id: last.id, height: last.height },
    timestamp,
    reward: BigInt(milestones.at(height).reward),
    transactions: await forgingSource.transactionsForForging(),
  });
  const verdict = await chain.acceptBlock({ serialized: block.serialized }, { ip: '127.0.0.1' });
  if (verdict.status !== 'accepted') {
    throw new Error(`block ${height} not accepted: ${JSON.stringify(verdict)}`);
  }
}
