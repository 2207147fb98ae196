import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { addressFromPassphrase, loadNetworkConfig, transfer } from '@lni/crypto';
import type { TestKernel } from '@lni/kernel/testing';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/node-harness.js';
import {
  restartLedgerNode,
  startLedgerNode,
  TESTNET,
  type LedgerNode,
} from '../support/ledger-node.js';
import {
  createTestDatabase,
  postgresSkipReason,
  type ServerConnection,
} from '../support/postgres.js';
import {
  createSnapshot,
  nodeConfig,
  storedTip,
  writeDatabaseEnv,
} from '../support/snapshot-target.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

const { pubKeyHash } = loadNetworkConfig(join(TESTNET, 'crypto')).network;
/** Enough signatures that checking them takes seconds on the worker threads. */
const BLOCKS = 800;
const TRANSFERS_PER_BLOCK = 75;

type Target = Awaited<ReturnType<typeof createTestDatabase>> & {
  readonly paths: Awaited<ReturnType<typeof nodeConfig>>;
};

/** Where a restore into `target` keeps the height it checked (its data directory). */
const progressOf = (target: Target): string => join(target.paths.data, 'snapshot-restore.progress');

/** The height a restore into `target` recorded, or 0 while there is none. */
async function recordedHeight(target: Target): Promise<number> {
  const text = await readFile(progressOf(target), 'utf8').catch(() => '');
  return text === '' ? 0 : (JSON.parse(text) as { height: number }).height;
}

/** Row counts and an MD5 of every row of the tables a restore writes, to compare two restores. */
async function tableDigests(connection: ServerConnection): Promise<Record<string, unknown>> {
  const client = new pg.Client({ ...connection, user: connection.username });
  await client.connect();
  try {
    const digests: Record<string, unknown> = {};
    for (const table of ['blocks', 'transactions', 'rounds', 'state_head', 'wallets']) {
      digests[table] = (
        await client.query(
          `SELECT count(*)::int AS rows, md5(string_agg(t::text, ',' ORDER BY t::text)) AS md5 FROM ${table} t`,
        )
      ).rows[0];
    }
    return digests;
  } finally {
    await client.end();
  }
}

/**
 * The snapshot's tar with block `height`'s signature altered and the manifest's SHA-256 of the
 * chain part made to match, so that every hash check passes and only the signature is wrong.
 */
function tamperedSnapshot(gzipped: Buffer, height: number): Buffer {
  const tar = Buffer.from(gunzipSync(gzipped));
  const entries = new Map<string, { start: number; size: number }>();
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0;) {
    const name = tar.toString('latin1', at, at + 100).replace(/\0.*$/s, '');
    const size = parseInt(tar.toString('latin1', at + 124, at + 136).replace(/\0.*$/s, ''), 8);
    entries.set(name, { start: at + 512, size });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  const chain = entries.get('chain.ndjson');
  const manifest = entries.get('manifest.json');
  if (chain === undefined || manifest === undefined) throw new Error('not a snapshot tar');
  const text = tar.toString('latin1', chain.start, chain.start + chain.size);
  const line = text.indexOf(`"height":${height},`);
  const signature = text.indexOf('"blockSignature":"', line) + '"blockSignature":"'.length;
  const at = chain.start + signature + 10;
  tar[at] = tar[at] === 0x30 ? 0x31 : 0x30; // one hex digit of the signature, '0' <-> '1'
  const before = createHash('sha256').update(text).digest('hex');
  const after = createHash('sha256')
    .update(tar.subarray(chain.start, chain.start + chain.size))
    .digest('hex');
  const manifestText = tar.toString('latin1', manifest.start, manifest.start + manifest.size);
  if (!manifestText.includes(before)) throw new Error('the manifest does not hash the chain');
  tar.write(manifestText.replace(before, after), manifest.start, 'latin1');
  return gzipSync(tar);
}

// An operator's restore of a long snapshot is killed while it checks signatures, and run again.
describe.skipIf(postgresSkipReason)('kernel snapshot:restore after an interruption', () => {
  let node: LedgerNode;
  let root: string;
  let snapshot: string;
  let tip: number;
  const targets: Target[] = [];
  let restored: TestKernel | undefined;
  /** The progress record the killed run left in its data directory. */
  let leftBehind: string;
  let interruptedAt: number;

  const newTarget = async (name: string): Promise<Target> => {
    const database = await createTestDatabase();
    targets.push({ ...database, paths: await nodeConfig(root, name, database.connection) });
    return targets.at(-1) as Target;
  };
  const restore = (file: string, target: Target): KernelProcess =>
    runKernel([
      'snapshot:restore',
      file,
      '--config',
      target.paths.config,
      '--data',
      target.paths.data,
      '--trust',
    ]);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-snapshot-resume-'));
    node = await startLedgerNode();
    await writeDatabaseEnv(node.kernel.paths.config, node.databaseConnection);
    const secrets = await delegateSecrets(TESTNET);
    const passphrase = secrets[1] as string;
    const api = new ApiClient(node.api);
    let nonce = BigInt(
      (await api.get(`/wallets/${addressFromPassphrase(passphrase, pubKeyHash)}`)).data.nonce,
    );
    for (let block = 0; block < BLOCKS; block += 1) {
      const transfers = Array.from({ length: TRANSFERS_PER_BLOCK }, (_, i) =>
        transfer({ network: pubKeyHash, milestone: node.milestones.at(2) })
          .recipientId(addressFromPassphrase(`resume ${i % 20}`, pubKeyHash))
          .amount(1 + block)
          .nonce((nonce += 1n))
          .sign(passphrase)
          .build(),
      );
      await node.forge(transfers);
    }
    tip = (await api.get('/blocks/last')).data.height as number;
    snapshot = join(root, 'testnet.snapshot.tar.gz');
    const create = createSnapshot(node.kernel.paths, snapshot);
    expect((await create.exited()).code, create.stderr()).toBe(0);
  }, 300_000);

  afterAll(async () => {
    await restored?.stop();
    await node?.stop();
    for (const target of targets) await target.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('killed while checking signatures, it leaves the height checked and writes nothing', async () => {
    const target = await newTarget('interrupted');
    const run = restore(snapshot, target);
    let exited = false;
    void run.exited().then(() => (exited = true));
    while (!exited && (await recordedHeight(target)) === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    run.child.kill('SIGKILL');
    expect((await run.exited()).signal, run.stderr()).toBe('SIGKILL');
    leftBehind = await readFile(progressOf(target), 'utf8');
    interruptedAt = await recordedHeight(target);
    // Nothing beside the snapshot: whoever supplied the file cannot supply a record too.
    expect(readdirSync(root).filter((name) => name.startsWith('testnet.snapshot'))).toEqual([
      'testnet.snapshot.tar.gz',
    ]);
    expect(interruptedAt).toBeGreaterThan(0);
    expect(interruptedAt).toBeLessThan(tip);
    expect(run.stdout()).not.toContain('Snapshot checked');
    // Verification writes nothing: the migrations and the load come after it.
    expect(await storedTip(target.connection)).toBeNull();
  }, 120_000);

  it('run again, it checks only the signatures above that height and restores what an uninterrupted restore does', async () => {
    const [interrupted] = targets as [Target];
    const resumed = restore(snapshot, interrupted);
    expect((await resumed.exited()).code, resumed.stderr()).toBe(0);
    expect(resumed.stdout()).toContain(
      `Resuming the signature checks at height ${interruptedAt} of ${tip} (${progressOf(interrupted)}, left by an interrupted run)`,
    );
    expect(resumed.stdout()).toContain(
      `signatures of ${tip - interruptedAt} blocks checked in this run, of those up to height ${interruptedAt} before)`,
    );
    expect(existsSync(progressOf(interrupted))).toBe(false);

    const straight = await newTarget('straight');
    const whole = restore(snapshot, straight);
    expect((await whole.exited()).code, whole.stderr()).toBe(0);
    expect(whole.stdout()).not.toContain('Resuming');
    // Every block after genesis (the genesis block is compared with the network's own).
    expect(whole.stdout()).toContain(`(signatures of ${tip - 1} blocks checked in this run)`);

    expect(await tableDigests(interrupted.connection)).toEqual(
      await tableDigests(straight.connection),
    );
    restored = await restartLedgerNode({
      databaseConnection: interrupted.connection,
      kernel: { paths: interrupted.paths },
    });
    const api = new ApiClient(`${restored.cradle.apiServer.server.info.uri}/api`);
    const source = new ApiClient(node.api);
    expect((await api.get('/blocks/last')).data).toEqual((await source.get('/blocks/last')).data);
    expect((await api.get('/wallets?limit=100')).data).toEqual(
      (await source.get('/wallets?limit=100')).data,
    );
  }, 180_000);

  it('trusts no progress of another snapshot or of a file changed since: it checks from genesis and refuses a tampered block', async () => {
    // A block below the height the killed run had checked.
    const height = Math.max(2, Math.floor(interruptedAt / 2));
    const original = await readFile(snapshot);
    const tampered = tamperedSnapshot(original, height);
    const refused = new RegExp(
      `^error: .*: block at height ${height}: .*signature.*: nothing was written$`,
    );

    // Another snapshot (its manifest differs), the first one's progress in the data directory.
    const other = join(root, 'other.snapshot.tar.gz');
    await writeFile(other, tampered);
    // The interrupted file itself, rewritten since, its modification time put back.
    const { atime, mtime } = await stat(snapshot);
    await writeFile(snapshot, tampered);
    await utimes(snapshot, atime, mtime);

    const target = await newTarget('tampered');
    for (const file of [other, snapshot]) {
      await mkdir(target.paths.data, { recursive: true });
      await writeFile(progressOf(target), leftBehind);
      const run = restore(file, target);
      expect((await run.exited()).code, file).toBe(1);
      expect(run.stdout(), file).not.toContain('Resuming');
      expect(run.stderr().trim(), file).toMatch(refused);
      expect(await storedTip(target.connection), file).toBeNull();
    }
  }, 120_000);
});
