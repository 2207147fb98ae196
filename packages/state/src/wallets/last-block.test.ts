import { Blocks, Managers } from '@arkecosystem/crypto';
import { forgeBlock, keysFromPassphrase, Milestones, serializeFullBlock } from '@lni/crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { lastBlockOf } from './last-block.js';

const require = createRequire(import.meta.url);
// ARK devnet: short (decimal) block ids until height 1,895,000, full sha256 ids from there.
const milestones = new Milestones(
  require('@arkecosystem/crypto-networks/dist/devnet/milestones.json'),
);
const keys = keysFromPassphrase('a delegate of devnet');

/** As the API shows wallet attributes: amounts as decimal strings. */
const asJson = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (_key, item: unknown) =>
      typeof item === 'bigint' ? item.toString() : item,
    ),
  );

/** The block data ARK 3.x keeps as a delegate's lastBlock: its block deserialized from the wire. */
function arkBlockData(bytes: Buffer, height: number): unknown {
  Managers.configManager.setFromPreset('devnet');
  Managers.configManager.setHeight(height);
  return asJson(Blocks.BlockFactory.fromBytes(bytes).data);
}

describe("a delegate's lastBlock", () => {
  for (const [label, height, previousId] of [
    ['short ids', 500, '12345678901234567890'],
    ['full sha256 ids', 1_895_001, 'ab'.repeat(32)],
  ] as const) {
    it(`holds the fields ARK 3.x keeps, in its shape (${label})`, () => {
      const block = forgeBlock({
        transactions: [],
        previousBlock: { id: previousId, height: height - 1 },
        timestamp: 80_000_000,
        keys,
        milestones,
      });
      const ours = asJson(lastBlockOf(block));
      expect(ours).toEqual(arkBlockData(serializeFullBlock(block, milestones), height));
      expect(ours).toMatchObject({ id: block.id, previousBlock: previousId });
    });
  }
});
