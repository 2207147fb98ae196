import {
  deserializeBlock,
  generateNetwork,
  keysFromPassphrase,
  Milestones,
  serializeTransaction,
  transactionFromJson,
  verifyBlockSignature,
  type BlockHeader,
  type GeneratedNetwork,
} from '@lni/crypto';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import type { ForgingRound } from '@lni/crypto';
import type { ForgingSource } from '@lni/state/contracts';
import { eventually, MemoryChain, startTestNode, type TestNode } from '@lni/p2p/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { forgerConfigSchema, forgerPlugin } from './plugin.js';
import { writeForgerConfig } from './__fixtures__/forger-config.js';

// The relay is a real p2p server; its ledger (`@lni/state`) is stood in for by MemoryChain as
// chain and by an in-test ForgingSource as forgingSource.
let network: GeneratedNetwork;
let milestones: Milestones;
let configDir: string;
let directory: string;
const stoppers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  network = generateNetwork({ name: 'testnet', delegates: 3, pubKeyHash: 23 });
  milestones = new Milestones(network.milestones);
  directory = await mkdtemp(join(tmpdir(), 'lni-forger-'));
  configDir = join(directory, 'config');
  await writeForgerConfig(configDir, network, [network.secrets[0]] as string[]);
});
afterAll(() => rm(directory, { recursive: true, force: true }));
afterEach(async () => {
  for (const stop of stoppers.splice(0).reverse()) await stop();
});

const ourDelegate = () =>
  keysFromPassphrase(network.secrets[0] as string).publicKey.toString('hex');
const otherDelegate = () =>
  keysFromPassphrase(network.secrets[1] as string).publicKey.toString('hex');
const genesisTransactions = () => network.genesisBlock.transactions ?? [];
const poolTransactions = () =>
  genesisTransactions()
    .slice(0, 2)
    .map((json) => serializeTransaction(transactionFromJson(json)).toString('hex'));

/**
 * A slot that is over already (epoch seconds), so the forger looks again at once instead of
 * waiting for the slot's end: a slot is forged once whatever the number of looks.
 */
const pastSlot = () =>
  Math.floor((Date.now() - Date.parse(milestones.at(1).epoch)) / 1000 / 8) * 8 - 80;

/** The ledger's view of the slot: delegate `forger` may forge block 2 on the genesis block. */
function forgingPort(
  forger: () => string,
  slotTimestamp = pastSlot(),
  onBlock?: { id: string; height: number },
): ForgingSource {
  const genesis = new MemoryChain({ nethash: network.network.nethash }).status().header;
  return {
    currentRound: (): ForgingRound<BlockHeader> => ({
      round: 1,
      reward: 0n,
      slotTimestamp,
      canForge: true,
      delegates: [],
      currentForger: forger(),
      nextForger: otherDelegate(),
      lastBlock: { ...genesis, id: network.genesisBlock.id as string, ...onBlock },
    }),
    transactionsForForging: () => poolTransactions(),
    poolSize: () => 2,
  };
}

async function relay(
  options: Record<string, unknown> = {},
  forger = ourDelegate,
  slotTimestamp = pastSlot(),
): Promise<TestNode> {
  const node = await startTestNode({
    chain: new MemoryChain({ nethash: network.network.nethash }),
    forging: forgingPort(forger, slotTimestamp),
    options,
  });
  stoppers.push(() => node.stop());
  return node;
}

async function forger(
  relayNode: TestNode,
  options: Record<string, unknown> = {},
  env: Record<string, string> = {},
): Promise<TestKernel> {
  const kernel = await startTestKernel({
    mode: 'forger',
    env,
    // A data directory of its own: each test's relay offers height 2 again, which the signing
    // record of an earlier test would refuse.
    paths: {
      config: configDir,
      data: await mkdtemp(join(directory, 'data-')),
      log: join(directory, 'node.log'),
    },
    plugins: [
      {
        plugin: forgerPlugin as Plugin<object>,
        options: { relays: [`127.0.0.1:${relayNode.port}`], requestTimeoutMs: 2_000, ...options },
      },
    ],
  });
  stoppers.push(() => kernel.stop());
  return kernel;
}

const postedBlocks = (node: TestNode) =>
  node.chain.received
    .filter((entry) => entry.kind === 'block')
    .map((entry) => entry.payload as Buffer);

describe('forger plugin with a relay', () => {
  it("forges and posts a signed block on the relay's last block in its delegate's slot", async () => {
    // The slot the relay offers, fixed once: another 8 s boundary may pass before the check.
    const slot = pastSlot();
    const node = await relay({}, ourDelegate, slot);
    await forger(node, { allowSingleNode: true });

    await eventually(() => postedBlocks(node).length === 1, 'the forger posted a block');
    const block = deserializeBlock(postedBlocks(node)[0] as Buffer, milestones);
    expect(block).toMatchObject({
      height: 2,
      previousBlock: network.genesisBlock.id,
      timestamp: slot,
      generatorPublicKey: ourDelegate(),
      numberOfTransactions: 2,
    });
    expect(verifyBlockSignature(block, milestones)).toBe(true);
    expect(block.transactions?.map((tx) => tx.id)).toEqual(
      genesisTransactions()
        .slice(0, 2)
        .map((tx) => tx.id),
    );
    expect(node.kernel.cradle.peerRepository.size).toBe(0); // a forger is not dialled back
  });

  it('takes its relays from CORE_FORGER_RELAYS and uses the next when the first is down', async () => {
    const node = await relay();
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    await forger(
      node,
      { allowSingleNode: true },
      {
        CORE_FORGER_RELAYS: `127.0.0.1:9,127.0.0.1:${node.port}`,
      },
    );
    await eventually(() => postedBlocks(node).length === 1, 'the second relay got the block');
  });

  it('reconnects to a relay that restarted', async () => {
    const first = await relay();
    stoppers.pop(); // stopped by the test itself
    let firstStopped = false;
    stoppers.push(async () => {
      if (!firstStopped) await first.stop();
    });
    const port = first.port;
    const kernel = await forger(first, { allowSingleNode: true });
    await eventually(() => postedBlocks(first).length === 1, 'the first relay got a block');
    firstStopped = true;
    await first.stop();
    await eventually(
      () => kernel.logs.some((record) => record.msg === 'Relay connection lost'),
      'the lost connection is logged',
    );

    // The relay comes back on the same port, in a new slot, on the block it got.
    const [posted] = postedBlocks(first).map((bytes) => deserializeBlock(bytes, milestones));
    const again = await startTestNode({
      chain: new MemoryChain({ nethash: network.network.nethash }),
      forging: forgingPort(ourDelegate, pastSlot() + 8, {
        id: posted?.id as string,
        height: posted?.height as number,
      }),
      options: { port },
    });
    stoppers.push(() => again.stop());
    await eventually(
      () => postedBlocks(again).length === 1,
      'the restarted relay got a block',
      8_000,
    );
  });

  it("does not forge in another delegate's slot", async () => {
    const node = await relay({}, otherDelegate);
    const kernel = await forger(node, { allowSingleNode: true });
    await eventually(
      () => kernel.logs.some((record) => record.msg === 'Connected to relay'),
      'the forger reached the relay',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(postedBlocks(node)).toEqual([]);
  });

  it('misses the slot when the relay has no peers and the network needs a quorum', async () => {
    const node = await relay();
    const kernel = await forger(node);
    await eventually(
      () => kernel.logs.some((record) => record.msg === 'Missed slot'),
      'the missed slot is logged',
    );
    const missed = kernel.logs.find((record) => record.msg === 'Missed slot');
    expect(missed?.reason).toMatch(/below its minimum network reach/);
    expect(postedBlocks(node)).toEqual([]);
  });

  it('is refused by a relay whose remoteAccess does not list its IP (the socket is closed)', async () => {
    const node = await relay({ remoteAccess: ['192.0.2.1'] });
    const kernel = await forger(node, { allowSingleNode: true });
    await eventually(
      () => kernel.logs.some((record) => record.msg === 'Relay did not answer'),
      'the refusal is logged',
    );
    const refusal = kernel.logs.find((record) => record.msg === 'Relay did not answer') as {
      reason?: string;
    };
    expect(refusal.reason).toMatch(/getCurrentRound to relay .* failed/);
    expect(postedBlocks(node)).toEqual([]);
  });
});

describe('forger options', () => {
  it('takes relays as a comma-separated string (CORE_FORGER_RELAYS) and names a bad one', () => {
    const { value } = forgerConfigSchema.validate({ relays: '10.0.0.1:4000, [::1]:4001' });
    expect(value?.relays).toEqual(['10.0.0.1:4000', '[::1]:4001']);
    expect(forgerConfigSchema.validate({}).value).toEqual({
      relayPort: 4000,
      minimumQuorum: 0.66,
      allowSingleNode: false,
      requestTimeoutMs: 5_000,
      startupWait: 0,
    });
    const { error } = forgerConfigSchema.validate({ relays: '10.0.0.1:4000,nohost' });
    expect(error?.message).toMatch(/host:port/);
  });
});
