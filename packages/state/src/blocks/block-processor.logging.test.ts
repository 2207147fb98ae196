import { createLogger } from '@lni/kernel';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { WalletRepository } from '../wallets/wallet-repository.js';
import { BlockProcessor } from './block-processor.js';
import { MemoryBlockStore } from './__fixtures__/memory-block-store.js';
import { BLOCKTIME, nextBlock, PUB_KEY_HASH, testNetwork } from './__fixtures__/test-chain.js';

describe('BlockProcessor logging', () => {
  it('logs blocks of the last slots at info and older ones, as a sync applies them, at debug', async () => {
    const network = testNetwork();
    const lines: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const wallets = new WalletRepository();
    const processor = new BlockProcessor({
      wallets,
      milestones: network.milestones,
      network: { pubKeyHash: PUB_KEY_HASH },
      forgingSchedule: network.schedule,
      blockStore: new MemoryBlockStore(),
      logger: createLogger({ level: 'trace', out, pretty: false }),
    });
    const epochMs = Date.parse(network.milestones.at(1).epoch);
    const currentSlot = Math.floor((Date.now() - epochMs) / 1000 / BLOCKTIME) * BLOCKTIME;

    await processor.process(network.genesis);
    const old = nextBlock(network, network.genesis, []);
    await processor.process(old);
    const live = nextBlock(network, old, [], { timestamp: currentSlot });
    await processor.process(live);

    const records = lines
      .map(
        (line) =>
          JSON.parse(line) as { msg: string; level: number; height: number; generator: string },
      )
      .filter((record) => record.msg === 'Block applied');
    const applied = records.map((record) => [record.height, record.level]);
    // One line says the block and who forged it, by username (core mode logs no second line).
    const username = wallets.byPublicKey(live.generatorPublicKey)?.attributes.delegate?.username;
    expect(username).toMatch(/\w/);
    expect(records.at(-1)?.generator).toBe(username);
    const [debug, info] = [20, 30];
    expect(applied).toEqual([
      [1, debug],
      [2, debug],
      [3, info],
    ]);
  });
});
