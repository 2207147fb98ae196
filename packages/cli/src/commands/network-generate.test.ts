import { Blocks, Managers } from '@arkecosystem/crypto';
import {
  addressFromPassphrase,
  addressFromPublicKey,
  blockFromJson,
  loadNetworkConfig,
  Milestones,
  TransactionType,
  verifyBlock,
  type NetworkConfig,
} from '@lni/crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { networksDirectory } from '../networks.js';
import { main } from '../program.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lni-network-generate-'));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const generate = (config: string, ...extra: string[]) =>
  main([
    'node',
    'kernel',
    'network:generate',
    '--network',
    'devnet2',
    '--config',
    config,
    ...extra,
  ]);

async function secretsIn(config: string): Promise<string[]> {
  return (
    JSON.parse(await readFile(join(config, 'delegates.json'), 'utf8')) as { secrets: string[] }
  ).secrets;
}

/** Checks a generated config directory with our library and with ARK 3.0's. */
async function expectValidNetwork(config: string, delegates: number, premine: bigint) {
  const loaded: NetworkConfig = loadNetworkConfig(join(config, 'crypto'));
  const pubKeyHash = loaded.network.pubKeyHash;
  const milestones = new Milestones(loaded.milestones);
  const genesis = blockFromJson(loaded.genesisBlock, { network: pubKeyHash });
  expect(verifyBlock(genesis, milestones)).toEqual({ verified: true, failures: [] });

  Managers.configManager.setConfig({ ...loaded, exceptions: {} } as never);
  const ark = Blocks.BlockFactory.fromJson(structuredClone(loaded.genesisBlock) as never)!;
  expect(ark.verification.errors).toEqual([]);
  expect(Blocks.Block.getId(ark.data)).toBe(genesis.id);

  const secrets = await secretsIn(config);
  expect(secrets).toHaveLength(delegates);
  const balances = new Map<string, bigint>();
  for (const tx of genesis.transactions ?? []) {
    const sender = addressFromPublicKey(tx.senderPublicKey, pubKeyHash);
    balances.set(sender, (balances.get(sender) ?? 0n) - tx.amount - tx.fee);
    if (tx.type === TransactionType.Transfer) {
      balances.set(tx.recipientId!, (balances.get(tx.recipientId!) ?? 0n) + tx.amount);
    }
  }
  const held = secrets.map((secret) => balances.get(addressFromPassphrase(secret, pubKeyHash)));
  expect(held.reduce((sum: bigint, balance) => sum + (balance ?? 0n), 0n)).toBe(premine);
  const registered = (genesis.transactions ?? []).filter(
    (tx) => tx.type === TransactionType.DelegateRegistration,
  );
  expect(registered).toHaveLength(delegates);
  return loaded;
}

describe('kernel network:generate', () => {
  it('writes a network whose genesis block both libraries verify', async () => {
    const config = join(dir, 'fresh');
    const code = await generate(
      config,
      '--delegates',
      '5',
      '--pub-key-hash',
      '30',
      '--premine',
      '1000003',
      '--blocktime',
      '4',
    );
    expect(code).toBe(0);
    const loaded = await expectValidNetwork(config, 5, 1_000_003n);
    expect(loaded.network.name).toBe('devnet2');
    expect(loaded.network.pubKeyHash).toBe(30);
    expect(new Milestones(loaded.milestones).at(1).blocktime).toBe(4);
    // No port pinned in .env: app.json's ports apply until an operator sets a variable.
    expect(existsSync(join(config, '.env'))).toBe(false);
  });

  it("writes an app.json whose forger forges without peers, and keeps an operator's own", async () => {
    const config = join(dir, 'alone');
    expect(await generate(config, '--delegates', '2')).toBe(0);
    const app = JSON.parse(await readFile(join(config, 'app.json'), 'utf8'));
    const forgerOf = (mode: string) =>
      (app[mode].plugins as { package: string; options: object }[]).find(
        (entry) => entry.package === '@lni/forger',
      );
    expect(forgerOf('core')?.options).toEqual({ allowSingleNode: true });
    expect(forgerOf('forger')?.options).toEqual({ allowSingleNode: true });
    expect(app.relay.plugins.map((entry: { package: string }) => entry.package)).toEqual([
      '@lni/database',
      '@lni/state',
      '@lni/p2p',
      '@lni/api',
    ]);

    const own = join(dir, 'own');
    await mkdir(own, { recursive: true });
    await writeFile(join(own, 'app.json'), '{"relay":{"plugins":[]}}\n');
    expect(await generate(own, '--delegates', '2')).toBe(0);
    expect(await readFile(join(own, 'app.json'), 'utf8')).toBe('{"relay":{"plugins":[]}}\n');
  });

  it('writes a port into .env only when asked to', async () => {
    const config = join(dir, 'ported');
    expect(await generate(config, '--delegates', '2', '--p2p-port', '5000')).toBe(0);
    expect(await readFile(join(config, '.env'), 'utf8')).toBe('CORE_P2P_PORT=5000\n');
  });

  it('refuses to replace an earlier generation unless --force is given', async () => {
    const config = join(dir, 'again');
    expect(await generate(config, '--delegates', '2')).toBe(0);
    const before = await secretsIn(config);
    expect(await generate(config, '--delegates', '2')).toBe(1);
    expect(await secretsIn(config)).toEqual(before);
    expect(await generate(config, '--delegates', '3', '--force')).toBe(0);
    expect(await secretsIn(config)).toHaveLength(3);
  });

  it('rejects flags that are not numbers in range as a usage error', async () => {
    expect(await generate(join(dir, 'bad'), '--delegates', '0')).toBe(2);
    expect(await generate(join(dir, 'bad'), '--delegates', '2', '--pub-key-hash', '256')).toBe(2);
  });
});

describe('the shipped testnet preset', () => {
  it('is a 51-delegate network with 8 s blocks that both libraries verify', async () => {
    const loaded = await expectValidNetwork(
      join(networksDirectory, 'testnet'),
      51,
      12_500_000_000_000_000n,
    );
    expect(loaded.network.name).toBe('testnet');
    expect(loaded.network.pubKeyHash).toBe(23);
    const first = new Milestones(loaded.milestones).at(1);
    expect(first.activeDelegates).toBe(51);
    expect(first.blocktime).toBe(8);
    // The ports are app.json's (the plugins' defaults 4000 and 4003): .env must not pin them.
    const env = await readFile(join(networksDirectory, 'testnet', '.env'), 'utf8');
    expect(env).not.toMatch(/^CORE_(P2P|API)_PORT=/m);
  });
});
