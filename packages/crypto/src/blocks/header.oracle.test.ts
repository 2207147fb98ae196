import { Blocks, Crypto, Managers, Utils } from '@arkecosystem/crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { keysFromPrivateKey } from '../identities/keys.js';
import { FULL_ID_HEIGHT, testMilestoneEntries, testMilestones } from './__fixtures__/milestones.js';
import {
  blockId,
  blockSigningHash,
  deserializeBlockParts,
  serializeBlockHeader,
  signBlockHeader,
  verifyBlockSignature,
  type SignedBlockHeader,
  type UnsignedBlockHeader,
} from './index.js';

const RUNS = 1000;
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
const privateKey = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((bytes) => Buffer.from(bytes))
  .filter((key) => key.some((byte) => byte !== 0) && key[0] !== 0xff);
// Heights on both sides of the switch to full ids, and anywhere else.
const height = fc.oneof(
  fc.integer({ min: 1, max: 0xffffffff }),
  fc.integer({ min: FULL_ID_HEIGHT - 2, max: FULL_ID_HEIGHT + 2 }),
  fc.integer({ min: 1, max: 3 }),
);

const unsignedHeader = fc
  .record({
    version: u32,
    timestamp: u32,
    height,
    numberOfTransactions: u32,
    totalAmount: u64,
    totalFee: u64,
    reward: u64,
    payloadLength: u32,
    payloadHash: hex(32),
    shortPrevious: u64,
    fullPrevious: hex(32),
  })
  .map(({ shortPrevious, fullPrevious, ...rest }): UnsignedBlockHeader => ({
    ...rest,
    generatorPublicKey: '',
    // The previous id's form is chosen by the milestone of the previous height.
    previousBlock: rest.height - 1 >= FULL_ID_HEIGHT ? fullPrevious : shortPrevious.toString(),
  }));

function toArk(header: SignedBlockHeader): Record<string, unknown> {
  return {
    ...header,
    totalAmount: Utils.BigNumber.make(header.totalAmount.toString()),
    totalFee: Utils.BigNumber.make(header.totalFee.toString()),
    reward: Utils.BigNumber.make(header.reward.toString()),
  };
}

beforeAll(() => {
  const testnet = Managers.configManager.getPreset('testnet');
  Managers.configManager.setConfig({ ...testnet, milestones: testMilestoneEntries } as never);
});

describe('block headers agree with ARK 3.0 (@arkecosystem/crypto 3.12.0)', () => {
  it('serializes the same bytes, gets the same id and each verifies the other signature', () => {
    fc.assert(
      fc.property(unsignedHeader, privateKey, (unsigned, key) => {
        const keys = keysFromPrivateKey(key);
        const draft = { ...unsigned, generatorPublicKey: keys.publicKey.toString('hex') };
        const header: SignedBlockHeader = {
          ...draft,
          blockSignature: signBlockHeader(draft, keys.privateKey, testMilestones),
        };
        const ark = toArk(header);

        const ours = serializeBlockHeader(header, testMilestones);
        expect(ours.toString('hex')).toBe(
          Blocks.Serializer.serialize(ark as never).toString('hex'),
        );
        expect(blockId(header, testMilestones)).toBe(Blocks.Block.getId(ark as never));

        const hash = blockSigningHash(header, testMilestones);
        expect(
          Crypto.Hash.verifyECDSA(hash, header.blockSignature, header.generatorPublicKey),
        ).toBe(true);
        const arkSignature = Crypto.Hash.signECDSA(hash, {
          publicKey: keys.publicKey.toString('hex'),
          privateKey: keys.privateKey.toString('hex'),
          compressed: true,
        });
        expect(
          verifyBlockSignature({ ...header, blockSignature: arkSignature }, testMilestones),
        ).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads back what ARK reads from the same header bytes', () => {
    fc.assert(
      fc.property(unsignedHeader, privateKey, (unsigned, key) => {
        const keys = keysFromPrivateKey(key);
        const draft = { ...unsigned, generatorPublicKey: keys.publicKey.toString('hex') };
        const header: SignedBlockHeader = {
          ...draft,
          blockSignature: signBlockHeader(draft, keys.privateKey, testMilestones),
        };
        const bytes = serializeBlockHeader(header, testMilestones);
        const { block, transactions } = deserializeBlockParts(bytes, testMilestones);
        const ark = Blocks.Deserializer.deserialize(bytes, true).data;

        expect(transactions).toBeUndefined();
        expect(block.id).toBe(ark.id);
        expect(block.version).toBe(ark.version);
        expect(block.timestamp).toBe(ark.timestamp);
        expect(block.height).toBe(ark.height);
        // A genesis header's zero previous id reads as null here and as "0" in ARK.
        expect(block.previousBlock ?? '0').toBe(ark.previousBlock);
        expect(block.numberOfTransactions).toBe(ark.numberOfTransactions);
        expect(block.totalAmount.toString()).toBe(ark.totalAmount.toString());
        expect(block.totalFee.toString()).toBe(ark.totalFee.toString());
        expect(block.reward.toString()).toBe(ark.reward.toString());
        expect(block.payloadLength).toBe(ark.payloadLength);
        expect(block.payloadHash).toBe(ark.payloadHash);
        expect(block.generatorPublicKey).toBe(ark.generatorPublicKey);
        expect(block.blockSignature).toBe(ark.blockSignature);
      }),
      { numRuns: RUNS },
    );
  });
});
