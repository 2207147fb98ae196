import { createLogger, EventBus } from '@lni/kernel';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { FullBlock } from './block-store.js';
import type { ChainListener } from './chain-listener.js';
import { MemoryBlockStore } from './__fixtures__/memory-block-store.js';
import { nextBlock, testNetwork, testProcessor } from './__fixtures__/test-chain.js';

const network = testNetwork();

/**
 * A processor past the genesis block that tells `listener`; `log` gets its block events and
 * whatever the listener writes there, `errors` the error lines it logs, both from block 2 on.
 */
async function processorWith(listener: (log: string[]) => ChainListener) {
  const log: string[] = [];
  const errors: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const record = JSON.parse(chunk.toString()) as Record<string, unknown>;
      if (record.level === 50) errors.push(record);
      done();
    },
  });
  const logger = createLogger({ level: 'error', out, pretty: false });
  const events = new EventBus(logger);
  events.on('block.applied', ({ block }) => void log.push(`event applied ${block.height}`));
  events.on('block.reverted', ({ block }) => void log.push(`event reverted ${block.height}`));
  const { processor } = testProcessor(network, new MemoryBlockStore(), {
    chainListeners: [listener(log)],
    events,
    logger,
  });
  await processor.process(network.genesis);
  log.length = 0;
  errors.length = 0;
  const next = () => nextBlock(network, processor.lastBlock as FullBlock, []);
  return { processor, log, errors, next };
}

describe('BlockProcessor chain listeners', () => {
  it('are told each block applied and each revert, oldest first, after the events', async () => {
    const world = await processorWith((log) => ({
      blockApplied: (block) => void log.push(`applied ${block.height}`),
      blocksReverted: async (blocks) => {
        log.push(`reverted ${blocks.map((block) => block.height).join(',')}`);
      },
    }));
    await world.processor.process(world.next());
    await world.processor.process(world.next());
    await world.processor.revertTo(1);
    expect(world.log).toEqual([
      'event applied 2',
      'applied 2',
      'event applied 3',
      'applied 3',
      'event reverted 3',
      'event reverted 2',
      'reverted 2,3',
    ]);
  });

  it('hold the next call until they have taken in a revert', async () => {
    let finish: () => void = () => undefined;
    const world = await processorWith((log) => ({
      blockApplied: (block) => void log.push(`applied ${block.height}`),
      blocksReverted: () => new Promise<void>((resolve) => (finish = resolve)),
    }));
    const block = world.next();
    await world.processor.process(block);
    const reverting = world.processor.revertTo(1).then(() => world.log.push('revert done'));
    const again = world.processor.process(block);
    await new Promise((resolve) => setImmediate(resolve));
    expect(world.log).toEqual(['event applied 2', 'applied 2', 'event reverted 2']);
    finish();
    await Promise.all([reverting, again]);
    expect(world.log.slice(3)).toEqual(['revert done', 'event applied 2', 'applied 2']);
  });

  it('that fail are logged with the heights; the stored change stands', async () => {
    const world = await processorWith(() => ({
      blockApplied: () => {
        throw new Error('listener broke');
      },
      blocksReverted: async () => {
        throw new Error('listener broke again');
      },
    }));
    const block = world.next();
    await world.processor.process(block);
    expect(world.processor.lastBlock?.id).toBe(block.id);
    await world.processor.revertTo(1);
    expect(world.processor.lastBlock?.height).toBe(1);
    expect(world.errors).toMatchObject([
      { msg: 'Chain listener failed to follow the chain', heights: [2] },
      { msg: 'Chain listener failed to follow the chain', heights: [2] },
    ]);
  });
});
