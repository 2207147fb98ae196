import { describe, expect, it } from 'vitest';
import { addressFromPublicKey } from '../identities/address.js';
import { keysFromPassphrase } from '../identities/keys.js';
import { transfer } from '../transactions/builders/transfer-builder.js';
import { testMilestones } from './__fixtures__/milestones.js';
import type { BlockHeader } from './block-data.js';
import { MalformedHeaderError } from './block-error.js';
import { blockHeaderOf } from './block-header.js';
import { headerFromWire, headerToWire } from './block-header-wire.js';
import { blockHeaderFromJson, blockHeaderToJson } from './block-json.js';
import { forgeBlock } from './forge-block.js';

const recipient = addressFromPublicKey(keysFromPassphrase('recipient').publicKey, 23);
const block = forgeBlock({
  transactions: [
    transfer({ network: 23 })
      .recipientId(recipient)
      .amount(123_456_789n)
      .nonce(1n)
      .sign('s')
      .build(),
  ],
  previousBlock: { id: '4880696052486307745', height: 41 },
  timestamp: 336,
  keys: keysFromPassphrase('generator'),
  milestones: testMilestones,
});
const genesis: BlockHeader = { ...blockHeaderOf(block), height: 1, previousBlock: null };

describe('the block header', () => {
  it('is the header alone: a block without its transactions or other fields', () => {
    const header = blockHeaderOf({ ...block, extra: 'left out' } as BlockHeader);
    expect(header).not.toHaveProperty('transactions');
    expect(header).not.toHaveProperty('extra');
    expect(header).toEqual({ ...block, transactions: undefined });
  });

  it('goes to ARK JSON with amounts as decimal strings, and back', () => {
    const json = blockHeaderToJson(block);
    expect(json).not.toHaveProperty('transactions');
    expect(json.totalAmount).toBe('123456789');
    expect(json.reward).toBe(String(block.reward));
    expect(blockHeaderFromJson(JSON.parse(JSON.stringify(json)))).toEqual(blockHeaderOf(block));
  });

  it('goes to the P2P fields and back; the genesis block travels with previous block "0"', () => {
    for (const header of [blockHeaderOf(block), genesis]) {
      const wire = headerToWire(header);
      expect(wire.totalAmount).toBe(header.totalAmount.toString());
      expect(headerFromWire({ ...wire }, 'header')).toEqual(header);
    }
    expect(headerToWire(genesis).previousBlock).toBe('0');
    expect(headerFromWire({ ...headerToWire(genesis), previousBlock: '' }, 'h').previousBlock).toBe(
      null,
    );
  });

  it('refuses a malformed P2P header with an error naming the header and the field', () => {
    const wire = headerToWire(block);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...wire, height: 0 }, 'blocks[3].height must be at least 1'],
      [{ ...wire, previousBlock: 'x' }, 'blocks[3].previousBlock is not a block id'],
      [{ ...wire, payloadHash: 'ab' }, 'blocks[3].payloadHash is not 32 bytes of hex'],
      [{ ...wire, totalFee: '-1' }, 'blocks[3].totalFee is not a decimal amount'],
      [{ ...wire, blockSignature: 7 }, 'blocks[3].blockSignature is not a string'],
      [{ ...wire, id: 'zz' }, 'blocks[3].id is not a block id'],
    ];
    for (const [fields, message] of cases) {
      expect(() => headerFromWire(fields, 'blocks[3]')).toThrow(new MalformedHeaderError(message));
    }
  });
});
