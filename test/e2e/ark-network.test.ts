import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';

// ARK 3.0's own mainnet files, as its crypto package ships them, copied in unchanged.
const require = createRequire(import.meta.url);
const arkMainnet = dirname(
  require.resolve('@arkecosystem/crypto-networks/dist/mainnet/network.json'),
);
const CRYPTO_FILES = ['network.json', 'milestones.json', 'genesisBlock.json', 'exceptions.json'];

describe("a relay on ARK 3.0 mainnet's config files", () => {
  let root: string;
  let config: string;
  let node: KernelProcess;
  let api: string;
  let startRelay: () => KernelProcess;
  const genesis = require(join(arkMainnet, 'genesisBlock.json')) as {
    id: string;
    generatorPublicKey: string;
    transactions: { type: number; senderPublicKey: string }[];
  };
  const network = require(join(arkMainnet, 'network.json')) as { nethash: string };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-ark-mainnet-'));
    config = join(root, 'config');
    await mkdir(join(config, 'crypto'), { recursive: true });
    for (const file of CRYPTO_FILES) {
      await copyFile(join(arkMainnet, file), join(config, 'crypto', file));
    }
    const [apiPort, p2pPort] = [await freePort(), await freePort()];
    api = `http://127.0.0.1:${apiPort}/api`;
    // No --network: the config directory's network.json names it.
    startRelay = () =>
      runKernel(['start', '--mode', 'relay', '--config', config, '--data', join(root, 'data')], {
        CORE_API_PORT: String(apiPort),
        CORE_P2P_PORT: String(p2pPort),
        CORE_LOG_LEVEL: 'info',
      });
    node = startRelay();
  });
  afterAll(async () => {
    node?.child.kill('SIGTERM');
    await node?.exited();
    await rm(root, { recursive: true, force: true });
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const get = async (path: string): Promise<any> => {
    const response = await fetch(`${api}${path}`);
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json();
  };

  it('starts on the files as they are, its genesis block applied under its own id', async () => {
    const last = await eventually(() => get('/blocks/last'), 120_000, 'the API');
    expect(last.data).toMatchObject({ id: genesis.id, height: 1 });
    expect(node.stdout()).toContain('"network":"mainnet"');
    expect(node.stdout()).toContain('Genesis block trusted through the nethash');

    const registrations = genesis.transactions.filter((tx) => tx.type === 2).length;
    const delegates = await get('/delegates?limit=100');
    expect(delegates.meta.totalCount).toBe(registrations);
    const configuration = await get('/node/configuration');
    expect(configuration.data).toMatchObject({ nethash: network.nethash, token: 'ARK' });
    const crypto = await get('/node/configuration/crypto');
    for (const file of CRYPTO_FILES) {
      const key = file === 'genesisBlock.json' ? 'genesisBlock' : file.replace('.json', '');
      const original = JSON.parse(await readFile(join(arkMainnet, file), 'utf8')) as unknown;
      expect(crypto.data[key], file).toEqual(original);
    }
    // The first start creates the embedded database, which takes long on a loaded machine.
  }, 150_000);

  it('wrote only the default app.json, none of another network’s files', async () => {
    expect(node.stdout()).toContain('First run: wrote the default app.json');
    expect(existsSync(join(config, 'app.json'))).toBe(true);
    expect(existsSync(join(config, 'peers.json'))).toBe(false);
    expect(existsSync(join(config, 'delegates.json'))).toBe(false);
  });

  it('holds the wallets ARK holds after its genesis block, and the same after a restart', async () => {
    await eventually(() => get('/blocks/last'), 120_000, 'the API');
    // Every sender counts its version-1 genesis transactions in its nonce, as ARK does.
    const sent = new Map<string, number>();
    for (const tx of genesis.transactions) {
      sent.set(tx.senderPublicKey, (sent.get(tx.senderPublicKey) ?? 0) + 1);
    }
    for (const [publicKey, count] of [...sent].slice(0, 5)) {
      expect((await get(`/wallets/${publicKey}`)).data.nonce).toBe(String(count));
    }
    // The genesis generator sent and received nothing; ARK still has its wallet.
    expect((await get(`/wallets/${genesis.generatorPublicKey}`)).data).toMatchObject({
      publicKey: genesis.generatorPublicKey,
      balance: '0',
      nonce: '0',
    });

    const wallets = async () => {
      const pages = [];
      for (let page = 1; page <= 3; page++) {
        pages.push(...(await get(`/wallets?orderBy=address:asc&limit=100&page=${page}`)).data);
      }
      return pages;
    };
    const live = await wallets();
    node.child.kill('SIGTERM');
    expect((await node.exited()).code).toBe(0);
    node = startRelay();
    await eventually(() => get('/blocks/last'), 120_000, 'the API after the restart');
    // Loaded from the wallet table the first start wrote, checked, not replayed.
    expect(node.stdout()).toContain('"msg":"State loaded"');
    expect(await wallets()).toEqual(live);
  }, 240_000);
});
