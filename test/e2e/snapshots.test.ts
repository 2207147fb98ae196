import { runKernel } from '@lni/cli/testing';
import { addressFromPassphrase, loadNetworkConfig, transfer } from '@lni/crypto';
import type { TestKernel } from '@lni/kernel/testing';
import { cp, mkdir, mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/node-harness.js';
import {
  restartLedgerNode,
  startLedgerNode,
  TESTNET,
  type LedgerNode,
} from '../support/ledger-node.js';
import { createTestDatabase, postgresSkipReason } from '../support/postgres.js';
import {
  createSnapshot,
  nodeConfig,
  storedTip,
  writeDatabaseEnv,
} from '../support/snapshot-target.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

const { pubKeyHash } = loadNetworkConfig(join(TESTNET, 'crypto')).network;

// An operator snapshots a running PostgreSQL node and starts a new node from the file.
describe.skipIf(postgresSkipReason)('kernel snapshot:create and snapshot:restore', () => {
  let node: LedgerNode;
  let root: string;
  let snapshot: string;
  let target: Awaited<ReturnType<typeof createTestDatabase>>;
  let targetPaths: Awaited<ReturnType<typeof nodeConfig>>;
  let restored: TestKernel | undefined;

  const restore = (file: string, ...args: string[]) =>
    runKernel([
      'snapshot:restore',
      file,
      '--config',
      targetPaths.config,
      '--data',
      targetPaths.data,
      ...args,
    ]);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-snapshots-'));
    node = await startLedgerNode();
    await writeDatabaseEnv(node.kernel.paths.config, node.databaseConnection);
    target = await createTestDatabase();
    targetPaths = await nodeConfig(root, 'target', target.connection);
    await mkdir(targetPaths.data, { recursive: true });

    const secrets = await delegateSecrets(TESTNET);
    const passphrase = secrets[1] as string;
    const api = new ApiClient(node.api);
    let nonce = BigInt(
      (await api.get(`/wallets/${addressFromPassphrase(passphrase, pubKeyHash)}`)).data.nonce,
    );
    for (let block = 0; block < 6; block += 1) {
      const transfers = Array.from({ length: block % 3 }, (_, i) =>
        transfer({ network: pubKeyHash, milestone: node.milestones.at(2) })
          .recipientId(addressFromPassphrase(`snapshot ${block} ${i}`, pubKeyHash))
          .amount(500 + i)
          .nonce((nonce += 1n))
          .sign(passphrase)
          .build(),
      );
      await node.forge(transfers);
    }
    snapshot = join(root, 'testnet.snapshot.tar.gz');
  }, 60_000);

  afterAll(async () => {
    await restored?.stop();
    await node?.stop();
    await target?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('writes the chain of a running node with its manifest', async () => {
    const create = createSnapshot(node.kernel.paths, snapshot);
    expect((await create.exited()).code).toBe(0);
    const api = new ApiClient(node.api);
    const last = (await api.get('/blocks/last')).data;
    const transactions = (await api.get('/transactions?limit=1')).meta.totalCount;
    // The wallet table goes with it when its head is at the snapshot's height, as it is here.
    const [{ wallets }] = (await node.kernel.cradle.database.manager.query(
      'SELECT count(*)::int AS wallets FROM wallets',
    )) as [{ wallets: number }];
    expect(create.stdout()).toContain(
      `Snapshot of testnet at height ${last.height} (block ${last.id}, ${transactions} transactions; chain ${last.height}, rounds 51, state_head 1, wallets ${wallets})`,
    );
    expect((await stat(snapshot)).size).toBeGreaterThan(0);
  }, 30_000);

  it('refuses a truncated file, a flipped byte and another network, one line each, writing nothing', async () => {
    const { size } = await stat(snapshot);
    const truncated = join(root, 'truncated.tar.gz');
    await cp(snapshot, truncated);
    await truncate(truncated, Math.floor(size / 2));
    const flipped = join(root, 'flipped.tar.gz');
    const bytes = await readFile(snapshot);
    const at = Math.floor(size * 0.6);
    bytes.writeUInt8((bytes.readUInt8(at) ^ 0x01) & 0xff, at);
    await writeFile(flipped, bytes);
    // Valid compression around altered content: a block's signature, a round's vote balance.
    const plain = gunzipSync(await readFile(snapshot));
    const forged = join(root, 'forged-signature.tar.gz');
    // The last block's (genesis is checked against the network's own, not by its signature).
    const signature = [...plain.toString('latin1').matchAll(/"blockSignature":"([0-9a-f]+)/g)].at(
      -1,
    )?.[1] as string;
    const flippedHex = signature.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    await writeFile(
      forged,
      gzipSync(Buffer.from(plain.toString('latin1').replace(signature, flippedHex), 'latin1')),
    );
    const rounds = join(root, 'altered-round.tar.gz');
    const balance = /"balance":(\d)/.exec(plain.toString('latin1'));
    const text = plain.toString('latin1');
    const index = (balance?.index ?? 0) + '"balance":'.length;
    const altered =
      text.slice(0, index) + (text[index] === '1' ? '2' : '1') + text.slice(index + 1);
    await writeFile(rounds, gzipSync(Buffer.from(altered, 'latin1')));
    // A node of another network (its own genesis), pointed at the same empty database.
    const othernet = join(root, 'othernet', 'config');
    const generate = runKernel([
      'network:generate',
      '--network',
      'othernet',
      '--delegates',
      '3',
      '--config',
      othernet,
    ]);
    expect((await generate.exited()).code, generate.stderr()).toBe(0);
    await cp(join(targetPaths.config, '.env'), join(othernet, '.env'));

    for (const [file, expected, config] of [
      [
        truncated,
        /^error: .*truncated\.tar\.gz is truncated or damaged \(.+\): nothing was written$/,
      ],
      // Where the byte lands decides which check refuses it first (the compressed stream, a
      // part's hash, a block's id or link); whichever it is, one line and nothing written.
      [flipped, /^error: .*flipped\.tar\.gz[: ].+[:;] nothing was written$/],
      [
        forged,
        /^error: .*forged-signature\.tar\.gz: block at height \d+: .*signature.*: nothing was written$/,
      ],
      [
        rounds,
        /^error: .*altered-round\.tar\.gz: part rounds does not match its manifest \(SHA-256 [0-9a-f]{64}, \d+ lines; expected [0-9a-f]{64}, \d+\): the file was altered or damaged; nothing was written$/,
      ],
      [
        snapshot,
        /^error: The snapshot is of network testnet \(nethash [0-9a-f]{64}\), this node's network is othernet \(nethash [0-9a-f]{64}\): refused$/,
        othernet,
      ],
    ] as const) {
      const run = config
        ? runKernel([
            'snapshot:restore',
            file,
            '--config',
            config,
            '--data',
            targetPaths.data,
            '--trust',
          ])
        : restore(file, '--trust');
      expect((await run.exited()).code, file).toBe(1);
      expect(run.stderr().trim(), file).toMatch(expected);
      expect(run.stderr().trim().split('\n'), file).toHaveLength(1);
      expect(await storedTip(target.connection), file).toBeNull();
    }
  }, 60_000);

  it('refuses a database that holds a chain', async () => {
    const run = runKernel([
      'snapshot:restore',
      snapshot,
      '--config',
      node.kernel.paths.config,
      '--data',
      node.kernel.paths.data,
      '--trust',
    ]);
    expect((await run.exited()).code).toBe(1);
    expect(run.stderr().trim()).toMatch(
      /^error: The database .* is not empty \(it holds blocks up to height \d+\): snapshot:restore writes only into an empty database; nothing was written$/,
    );
  });

  it('without a peer to confirm it, asks for --trust; with it, a new node starts at H', async () => {
    const unconfirmed = restore(snapshot);
    expect((await unconfirmed.exited()).code).toBe(1);
    expect(unconfirmed.stderr()).toContain('pass --trust to restore anyway; nothing was written');
    expect(await storedTip(target.connection)).toBeNull();

    const run = restore(snapshot, '--trust');
    expect((await run.exited()).code, run.stderr()).toBe(0);
    expect(run.stderr()).toContain('warning: no peer could confirm block');
    const source = new ApiClient(node.api);
    const last = (await source.get('/blocks/last')).data;
    const transactions = (await source.get('/transactions?limit=1')).meta.totalCount;
    expect(run.stdout()).toContain(
      `Restored ${last.height} blocks and ${transactions} transactions`,
    );

    restored = await restartLedgerNode({
      databaseConnection: target.connection,
      kernel: { paths: targetPaths },
    });
    const api = new ApiClient(`${restored.cradle.apiServer.server.info.uri}/api`);
    expect((await api.get('/blocks/last')).data).toEqual(last);
    expect((await api.get('/wallets?limit=100')).data).toEqual(
      (await source.get('/wallets?limit=100')).data,
    );
  }, 90_000);
});
