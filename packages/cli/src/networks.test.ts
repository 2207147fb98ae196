import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isShippedNetworkIn, networksDirectory } from './networks.js';

const require = createRequire(import.meta.url);
/** ARK's own testnet, which is called `testnet` like the one this distribution ships. */
const arkTestnet = dirname(
  require.resolve('@arkecosystem/crypto-networks/dist/testnet/network.json'),
);

let config: string;
beforeEach(async () => {
  config = await mkdtemp(join(tmpdir(), 'lni-networks-'));
});
afterEach(async () => {
  await rm(config, { recursive: true, force: true });
});

describe('isShippedNetworkIn: whether a first start publishes the shipped defaults', () => {
  it('yes for a shipped network into an empty directory or one holding its own files', async () => {
    expect(isShippedNetworkIn('testnet', config)).toBe(true);
    await cp(join(networksDirectory, 'testnet', 'crypto'), join(config, 'crypto'), {
      recursive: true,
    });
    expect(isShippedNetworkIn('testnet', config)).toBe(true);
  });

  it("no for another network of the same name (ARK's testnet): its delegates are not ours", async () => {
    await mkdir(join(config, 'crypto'));
    for (const file of ['network.json', 'milestones.json', 'genesisBlock.json']) {
      await cp(join(arkTestnet, file), join(config, 'crypto', file));
    }
    expect(isShippedNetworkIn('testnet', config)).toBe(false);
  });

  it('no for a network this distribution does not ship', () => {
    expect(isShippedNetworkIn('mainnet', config)).toBe(false);
  });
});
