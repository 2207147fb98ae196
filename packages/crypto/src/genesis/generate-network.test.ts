import { Blocks, Managers } from '@arkecosystem/crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockFromJson } from '../blocks/block-json.js';
import { verifyBlock } from '../blocks/verify-block.js';
import { addressFromPassphrase, addressFromPublicKey } from '../identities/address.js';
import { keysFromPassphrase } from '../identities/keys.js';
import { loadNetworkConfig } from '../networks/load-network-config.js';
import { Milestones } from '../networks/milestones.js';
import { TransactionType, type TransactionData } from '../transactions/transaction-data.js';
import { generateNetwork, NetworkGenerationError, type GeneratedNetwork } from './index.js';

const PUB_KEY_HASH = 23;
const PREMINE = 12_500_000_000_000_003n;
let counter = 0;
const createSecret = () => `test secret ${counter++}`;

let dir: string;
let generated: GeneratedNetwork;

beforeAll(async () => {
  generated = generateNetwork({
    name: 'unittest',
    delegates: 7,
    pubKeyHash: PUB_KEY_HASH,
    premine: PREMINE,
    epoch: '2026-11-01T00:00:00.000Z',
    createSecret,
  });
  dir = await mkdtemp(join(tmpdir(), 'lni-genesis-'));
  await mkdir(join(dir, 'crypto'));
  for (const [file, value] of [
    ['network.json', generated.network],
    ['milestones.json', generated.milestones],
    ['genesisBlock.json', generated.genesisBlock],
  ] as const) {
    await writeFile(join(dir, 'crypto', file), JSON.stringify(value, null, 2));
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Balance of each address after the genesis block: senders pay amount and fee. */
function balancesOf(transactions: readonly TransactionData[]): Map<string, bigint> {
  const balances = new Map<string, bigint>();
  const add = (address: string, delta: bigint) =>
    balances.set(address, (balances.get(address) ?? 0n) + delta);
  for (const tx of transactions) {
    add(addressFromPublicKey(tx.senderPublicKey, PUB_KEY_HASH), -(tx.amount + tx.fee));
    if (tx.type === TransactionType.Transfer) add(tx.recipientId!, tx.amount);
  }
  return balances;
}

describe('generateNetwork', () => {
  it('writes files that loadNetworkConfig accepts, nethash being the genesis payload hash', () => {
    const config = loadNetworkConfig(join(dir, 'crypto'));
    expect(config.network.nethash).toBe(generated.genesisBlock.payloadHash);
    expect(config.network.pubKeyHash).toBe(PUB_KEY_HASH);
    const first = new Milestones(config.milestones).at(1);
    expect(first.activeDelegates).toBe(7);
    expect(first.blocktime).toBe(8);
    expect(first.epoch).toBe('2026-11-01T00:00:00.000Z');
    expect(new Milestones(config.milestones).at(75_600).reward).toBe(200_000_000);
  });

  it('makes a genesis block that our verifyBlock accepts', () => {
    const milestones = new Milestones(generated.milestones);
    const block = blockFromJson(generated.genesisBlock, { network: PUB_KEY_HASH });
    expect(verifyBlock(block, milestones)).toEqual({ verified: true, failures: [] });
  });

  it('makes a genesis block that ARK 3.0 accepts with the same id', () => {
    Managers.configManager.setConfig({
      network: generated.network,
      milestones: generated.milestones,
      genesisBlock: generated.genesisBlock,
      exceptions: {},
    } as never);
    const ark = Blocks.BlockFactory.fromJson(structuredClone(generated.genesisBlock) as never)!;
    expect(ark.verification.errors).toEqual([]);
    expect(ark.verification.verified).toBe(true);
    expect(Blocks.Block.getId(ark.data)).toBe(generated.genesisBlock.id);
  });

  it('registers every delegate, each voting for itself, and gives them the whole premine', () => {
    const block = blockFromJson(generated.genesisBlock, { network: PUB_KEY_HASH });
    const transactions = block.transactions ?? [];
    const delegateKeys = generated.secrets.map((secret) =>
      keysFromPassphrase(secret).publicKey.toString('hex'),
    );
    const registrations = transactions.filter(
      (tx) => tx.type === TransactionType.DelegateRegistration,
    );
    const votes = transactions.filter((tx) => tx.type === TransactionType.Vote);
    expect(registrations.map((tx) => tx.senderPublicKey)).toEqual(delegateKeys);
    expect(registrations.map((tx) => tx.asset?.delegate?.username)).toEqual(
      delegateKeys.map((_, index) => `genesis_${index + 1}`),
    );
    expect(votes.map((tx) => tx.asset?.votes)).toEqual(delegateKeys.map((key) => [`+${key}`]));

    const balances = balancesOf(transactions);
    const delegateBalances = generated.secrets.map(
      (secret) => balances.get(addressFromPassphrase(secret, PUB_KEY_HASH)) ?? 0n,
    );
    expect(delegateBalances.reduce((sum, balance) => sum + balance, 0n)).toBe(PREMINE);
    expect([...balances.values()].reduce((sum, balance) => sum + balance, 0n)).toBe(0n);
    expect(block.totalAmount).toBe(PREMINE);
    expect(block.totalFee).toBe(0n);
  });

  it('transfers the premine to the initial balances given instead', () => {
    const alice = addressFromPassphrase('alice', PUB_KEY_HASH);
    const bob = addressFromPassphrase('bob', PUB_KEY_HASH);
    const network = generateNetwork({
      name: 'balances',
      delegates: 2,
      pubKeyHash: PUB_KEY_HASH,
      balances: [
        { address: alice, amount: 5n },
        { address: bob, amount: 7n },
      ],
      createSecret,
    });
    const block = blockFromJson(network.genesisBlock, { network: PUB_KEY_HASH });
    const balances = balancesOf(block.transactions ?? []);
    expect(balances.get(alice)).toBe(5n);
    expect(balances.get(bob)).toBe(7n);
    expect(verifyBlock(block, new Milestones(network.milestones)).verified).toBe(true);
  });

  it('makes random BIP39 secrets by default', () => {
    const network = generateNetwork({ name: 'random', delegates: 2, pubKeyHash: 30 });
    expect(network.secrets).toHaveLength(2);
    expect(network.secrets[0]!.split(' ')).toHaveLength(12);
    expect(network.secrets[0]).not.toBe(network.secrets[1]);
  });

  it('names every option it cannot use', () => {
    expect(() =>
      generateNetwork({ name: 'bad name!', delegates: 0, pubKeyHash: 300, createSecret }),
    ).toThrow(NetworkGenerationError);
    const both = () =>
      generateNetwork({
        name: 'x',
        delegates: 2,
        activeDelegates: 3,
        pubKeyHash: 300,
        createSecret,
      });
    expect(both).toThrow(/activeDelegates/);
    expect(both).toThrow(/pubKeyHash/);
    expect(() =>
      generateNetwork({
        name: 'x',
        delegates: 1,
        pubKeyHash: 23,
        balances: [{ address: addressFromPassphrase('a', 30), amount: 1n }],
        createSecret,
      }),
    ).toThrow(/balances\[0\]\.address/);
    expect(() =>
      generateNetwork({
        name: 'x',
        delegates: 1,
        pubKeyHash: 23,
        premine: 10n,
        balances: [{ address: addressFromPassphrase('a', 23), amount: 9n }],
        createSecret,
      }),
    ).toThrow(/premine: 10, but the balances add up to 9/);
  });
});
