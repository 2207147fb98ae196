import type { BlockHeader } from './block-data.js';
import { MalformedHeaderError } from './block-error.js';
import { blockHeaderToJson, type BlockHeaderJson } from './block-json.js';

/** ARK's block ids: the decimal of 8 bytes (or 16 hex) before `idFullSha256`, 64 hex after. */
const BLOCK_ID = /^(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{16}|\d{1,20})$/;
const DECIMAL = /^\d{1,30}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

export const isBlockId = (value: string): boolean => BLOCK_ID.test(value);

/**
 * A header's fields in ARK 3.x's P2P protobuf (`BlockHeader`, transactions aside): amounts as
 * decimal strings, and a previous block id even for the genesis block.
 */
export type WireBlockHeader = Omit<BlockHeaderJson, 'previousBlock'> & {
  readonly previousBlock: string;
};

/**
 * A header as ARK sends it. The genesis block has no previous block: ARK's schema accepts an
 * empty or zero id at height 1, and "0" serializes to the same eight zero bytes as none.
 */
export function headerToWire(header: BlockHeader): WireBlockHeader {
  return { ...blockHeaderToJson(header), previousBlock: header.previousBlock ?? '0' };
}

/**
 * A decoded header checked field by field; `what` names it in the MalformedHeaderError
 * (`blocks[3]`). Whether it is authentic (id, signature, generator) is the ledger's question.
 */
export function headerFromWire(
  fields: Readonly<Record<string, unknown>>,
  what: string,
): BlockHeader {
  const text = (name: string): string => {
    const value = fields[name];
    if (typeof value !== 'string')
      throw new MalformedHeaderError(`${what}.${name} is not a string`);
    return value;
  };
  // Zero values an encoder may leave off the wire (proto3) read as 0; only height is required.
  const integer = (name: string): number => {
    const value = fields[name] ?? (name === 'height' ? undefined : 0);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new MalformedHeaderError(`${what}.${name} is not a non-negative integer`);
    }
    return value;
  };
  const matching = (name: string, pattern: RegExp, shape: string): string => {
    const value = text(name);
    if (!pattern.test(value)) throw new MalformedHeaderError(`${what}.${name} is not ${shape}`);
    return value;
  };
  const amount = (name: string): bigint => BigInt(matching(name, DECIMAL, 'a decimal amount'));
  const height = integer('height');
  if (height < 1) throw new MalformedHeaderError(`${what}.height must be at least 1`);
  const previous = text('previousBlock');
  let previousBlock: string | null;
  if (height === 1 && (previous === '' || previous === '0')) previousBlock = null;
  else if (BLOCK_ID.test(previous)) previousBlock = previous;
  else throw new MalformedHeaderError(`${what}.previousBlock is not a block id`);
  const payloadHash = matching('payloadHash', HEX, 'hex');
  if (payloadHash.length !== 64) {
    throw new MalformedHeaderError(`${what}.payloadHash is not 32 bytes of hex`);
  }
  const generatorPublicKey = matching('generatorPublicKey', HEX, 'hex');
  if (generatorPublicKey.length !== 66) {
    throw new MalformedHeaderError(`${what}.generatorPublicKey is not a compressed public key`);
  }
  const blockSignature = matching('blockSignature', HEX, 'hex');
  if (blockSignature.length > 146) {
    throw new MalformedHeaderError(`${what}.blockSignature is too long`);
  }
  return {
    id: matching('id', BLOCK_ID, 'a block id'),
    version: integer('version'),
    timestamp: integer('timestamp'),
    height,
    previousBlock,
    numberOfTransactions: integer('numberOfTransactions'),
    totalAmount: amount('totalAmount'),
    totalFee: amount('totalFee'),
    reward: amount('reward'),
    payloadLength: integer('payloadLength'),
    payloadHash,
    generatorPublicKey,
    blockSignature,
  };
}
