/**
 * Data tools benchmark on the PostgreSQL at 127.0.0.1:5432: `kernel snapshot:create` and
 * `kernel snapshot:restore --trust` of a chain of SNAPSHOT_TRANSACTIONS signed transfers (150 a
 * block, default 100,000; the issue's figure is 1,000,000), and `kernel db:rollback` of
 * ROLLBACK_BLOCKS blocks (default 1,000), each run as an operator runs it (a `kernel` process),
 * beside a baseline measured in the same run on the same data:
 * - create beside `pg_dump --format=custom` of the same database;
 * - restore beside verifying the same blocks' signatures on the same worker pool (its floor);
 * - rollback beside the block storage's plain delete of the same blocks (no pool, no rounds).
 * Signing the chain is not timed. Run: npx tsx packages/cli/bench/index.ts
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import {
  addressFromPassphrase,
  blockFromJson,
  deserializeTransaction,
  forgeBlock,
  keysFromPassphrase,
  loadNetworkConfig,
  Milestones,
  transfer,
  verifyBlocksInPool,
  VerificationPool,
  blockHeaderFromJson,
  type BlockData,
  type TransactionData,
} from '@lni/crypto';
import { createLogger } from '@lni/kernel';
import { BlockStorage, Database, databaseOptions } from '@lni/database';
import { storedTransactionOf } from '@lni/state';
import { networksDirectory } from '../src/networks.js';
import { runKernel } from '../src/testing/run-kernel.js';

const run = promisify(execFile);
const TRANSACTIONS = Number(process.env.SNAPSHOT_TRANSACTIONS ?? 100_000);
const ROLLBACK_BLOCKS = Number(process.env.ROLLBACK_BLOCKS ?? 1_000);
const PER_BLOCK = 150;
const TESTNET = join(networksDirectory, 'testnet');
const SERVER = { host: '127.0.0.1', port: 5432, username: 'postgres' };

function database(name: string): Database {
  return new Database({
    logger: createLogger({ level: 'fatal' }),
    databaseOptions: databaseOptions({ connection: { ...SERVER, database: name } }),
    dataDirectory: tmpdir(),
  });
}

async function admin(sql: string): Promise<void> {
  const db = database('postgres');
  await db.open();
  try {
    await db.manager.query(sql);
  } finally {
    await db.close();
  }
}

/** A testnet config directory whose node uses database `name`. */
async function config(root: string, name: string): Promise<string> {
  const dir = join(root, name);
  await cp(join(TESTNET, 'crypto'), join(dir, 'crypto'), { recursive: true });
  await writeFile(
    join(dir, '.env'),
    `CORE_DB_HOST=${SERVER.host}\nCORE_DB_PORT=${SERVER.port}\nCORE_DB_USERNAME=${SERVER.username}\nCORE_DB_DATABASE=${name}\n`,
  );
  return dir;
}

async function kernel(args: string[]): Promise<number> {
  const started = performance.now();
  const child = runKernel(args, { CORE_LOG_LEVEL: 'warn' });
  const { code } = await child.exited();
  if (code !== 0) throw new Error(`kernel ${args[0]} failed: ${child.stderr()}`);
  return (performance.now() - started) / 1000;
}

/** Writes genesis and the signed chain through the node's block storage, in batches. */
async function writeChain(name: string, milestones: Milestones, genesisJson: unknown) {
  const db = database(name);
  await db.open();
  const storage = new BlockStorage({ database: db });
  const { secrets } = JSON.parse(await readFile(join(TESTNET, 'delegates.json'), 'utf8')) as {
    secrets: string[];
  };
  const sender = keysFromPassphrase(secrets[0] as string);
  const forger = keysFromPassphrase(secrets[1] as string);
  const { pubKeyHash } = loadNetworkConfig(join(TESTNET, 'crypto')).network;
  const recipient = addressFromPassphrase(secrets[2] as string, pubKeyHash);
  const genesis = blockFromJson(genesisJson);
  await storage.saveBlocks([
    {
      block: genesis,
      transactions: (genesis.transactions ?? []).map((tx, i) =>
        storedTransactionOf(tx, genesis, i),
      ),
    },
  ]);
  let previous: BlockData<TransactionData> = genesis;
  let nonce = 0n;
  let batch: BlockData<TransactionData>[] = [];
  const blocks = Math.ceil(TRANSACTIONS / PER_BLOCK);
  for (let height = 2; height <= blocks + 1; height++) {
    const transactions = Array.from({ length: PER_BLOCK }, () =>
      transfer({ network: pubKeyHash, milestone: milestones.at(2) })
        .recipientId(recipient)
        .amount(1)
        .nonce((nonce += 1n))
        .sign(sender)
        .build(),
    );
    previous = forgeBlock({
      transactions,
      previousBlock: previous,
      timestamp: previous.timestamp + 8,
      keys: forger,
      milestones,
    });
    batch.push(previous);
    if (batch.length === 50 || height === blocks + 1) {
      await storage.saveBlocks(
        batch.map((block) => ({
          block,
          transactions: (block.transactions ?? []).map((tx, i) =>
            storedTransactionOf(tx, block, i),
          ),
        })),
      );
      batch = [];
    }
  }
  await db.close();
  return blocks + 1;
}

/** The restore's floor: every block's rules and signatures checked on the same worker pool. */
async function verifyOnly(name: string, milestones: Milestones, tip: number): Promise<number> {
  const db = database(name);
  await db.open();
  const pool = new VerificationPool();
  const started = performance.now();
  for (let from = 2; from <= tip; from += 200) {
    const to = Math.min(tip, from + 199);
    const headers = (await db.manager.query(
      `SELECT json_build_object('id', id, 'version', version, 'timestamp', timestamp, 'height', height,
         'previousBlock', previous_block, 'numberOfTransactions', number_of_transactions,
         'totalAmount', total_amount::text, 'totalFee', total_fee::text, 'reward', reward::text,
         'payloadLength', payload_length, 'payloadHash', payload_hash,
         'generatorPublicKey', generator_public_key, 'blockSignature', block_signature) AS b
       FROM blocks WHERE height BETWEEN $1 AND $2 ORDER BY height`,
      [from, to],
    )) as { b: unknown }[];
    const rows = (await db.manager.query(
      'SELECT block_height, serialized FROM transactions WHERE block_height BETWEEN $1 AND $2 ORDER BY block_height, sequence',
      [from, to],
    )) as { block_height: number; serialized: Buffer }[];
    const blocks = headers.map(({ b }) => {
      const header = blockHeaderFromJson(b);
      return {
        ...header,
        transactions: rows
          .filter((row) => row.block_height === header.height)
          .map((row) => deserializeTransaction(row.serialized)),
      };
    });
    const results = await verifyBlocksInPool(blocks, milestones, pool);
    if (results.some((result) => !result.verified)) throw new Error('a generated block fails');
  }
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  await db.close();
  return seconds;
}

async function plainDelete(name: string, height: number): Promise<number> {
  const db = database(name);
  await db.open();
  const started = performance.now();
  await new BlockStorage({ database: db }).deleteBlocksAbove(height);
  const seconds = (performance.now() - started) / 1000;
  await db.close();
  return seconds;
}

function line(label: string, seconds: number, baseline: number, target: string, rate: string) {
  console.log(
    `${label.padEnd(34)} ${seconds.toFixed(2).padStart(8)} s  ${rate.padStart(16)}  ${(seconds / baseline).toFixed(2).padStart(6)}x baseline (${baseline.toFixed(2)} s)  target ${target}`,
  );
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'lni-data-bench-'));
  const suffix = randomBytes(4).toString('hex');
  const [source, target] = [`lni_bench_src_${suffix}`, `lni_bench_dst_${suffix}`];
  const network = loadNetworkConfig(join(TESTNET, 'crypto'));
  const milestones = new Milestones(network.milestones);
  try {
    await admin(`CREATE DATABASE ${source}`);
    await admin(`CREATE DATABASE ${target}`);
    const sourceConfig = await config(root, source);
    const targetConfig = await config(root, target);
    const data = join(root, 'data');
    await kernel(['db:migrate', '--config', sourceConfig, '--data', data]);
    const signing = performance.now();
    const tip = await writeChain(source, milestones, network.genesisBlock);
    console.log(
      `chain: ${tip} blocks, ${TRANSACTIONS} signed transfers + genesis (written in ${((performance.now() - signing) / 1000).toFixed(1)} s, not timed)`,
    );
    const node = ['--config', sourceConfig, '--data', data];

    const dumpFile = join(root, 'source.pgdump');
    const dumpStarted = performance.now();
    await run('pg_dump', [
      '--format=custom',
      '-h',
      SERVER.host,
      '-U',
      SERVER.username,
      '-f',
      dumpFile,
      source,
    ]);
    const dump = (performance.now() - dumpStarted) / 1000;
    const file = join(root, 'bench.snapshot.tar.gz');
    const create = await kernel(['snapshot:create', ...node, '--to', file]);
    const { size } = await stat(file);
    line(
      'snapshot:create',
      create,
      dump,
      '≤ 3x pg_dump',
      `${Math.round(TRANSACTIONS / create)} tx/s`,
    );
    console.log(
      `  snapshot ${(size / 1e6).toFixed(1)} MB, pg_dump ${((await stat(dumpFile)).size / 1e6).toFixed(1)} MB`,
    );

    const verify = await verifyOnly(source, milestones, tip);
    const restore = await kernel([
      'snapshot:restore',
      file,
      '--config',
      targetConfig,
      '--data',
      data,
      '--trust',
    ]);
    line(
      'snapshot:restore --trust',
      restore,
      verify,
      '≤ 3x verification',
      `${Math.round(TRANSACTIONS / restore)} tx/s`,
    );

    const blocks = Math.min(ROLLBACK_BLOCKS, tip - 1);
    const rollback = await kernel(['db:rollback', ...node, '--blocks', String(blocks), '--yes']);
    const plain = await plainDelete(target, tip - blocks);
    line(
      `db:rollback --blocks ${blocks}`,
      rollback,
      plain,
      '≤ 10 s',
      `${Math.round(blocks / rollback)} blocks/s`,
    );
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${source} WITH (FORCE)`);
    await admin(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`);
    await rm(root, { recursive: true, force: true });
  }
}

await main();
