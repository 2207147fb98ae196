import type { BlockHeader } from '../chain-port.js';
import { WireError } from './wire-error.js';

/** ARK's block ids: the decimal of 8 bytes (or 16 hex) before `idFullSha256`, 64 hex after. */
const BLOCK_ID = /^(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{16}|\d{1,20})$/;
const DECIMAL = /^\d{1,30}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

export const isBlockId = (value: string): boolean => BLOCK_ID.test(value);

/** The wire fields of a header (`BlockHeader` of schema.ts), transactions aside. */
export interface WireHeaderFields {
  readonly id: string;
  readonly version: number;
  readonly timestamp: number;
  readonly previousBlock: string;
  readonly height: number;
  readonly numberOfTransactions: number;
  readonly totalAmount: string;
  readonly totalFee: string;
  readonly reward: string;
  readonly payloadLength: number;
  readonly payloadHash: string;
  readonly generatorPublicKey: string;
  readonly blockSignature: string;
}

/**
 * A header as ARK sends it. The genesis block has no previous block: ARK's schema accepts an
 * empty or zero id at height 1, and "0" serializes to the same eight zero bytes as none.
 */
export function headerToWire(header: BlockHeader): WireHeaderFields {
  return {
    id: header.id,
    version: header.version,
    timestamp: header.timestamp,
    previousBlock: header.previousBlock ?? '0',
    height: header.height,
    numberOfTransactions: header.numberOfTransactions,
    totalAmount: header.totalAmount,
    totalFee: header.totalFee,
    reward: header.reward,
    payloadLength: header.payloadLength,
    payloadHash: header.payloadHash,
    generatorPublicKey: header.generatorPublicKey,
    blockSignature: header.blockSignature ?? '',
  };
}

/** A decoded header checked field by field; `what` names it in the error (`blocks[3]`). */
export function headerFromWire(
  fields: Readonly<Record<string, unknown>>,
  what: string,
): BlockHeader {
  const text = (name: string): string => {
    const value = fields[name];
    if (typeof value !== 'string') throw new WireError(`${what}.${name} is not a string`);
    return value;
  };
  // Zero values an encoder may leave off the wire (proto3) read as 0; only height is required.
  const integer = (name: string): number => {
    const value = fields[name] ?? (name === 'height' ? undefined : 0);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new WireError(`${what}.${name} is not a non-negative integer`);
    }
    return value;
  };
  const matching = (name: string, pattern: RegExp, shape: string): string => {
    const value = text(name);
    if (!pattern.test(value)) throw new WireError(`${what}.${name} is not ${shape}`);
    return value;
  };
  const height = integer('height');
  if (height < 1) throw new WireError(`${what}.height must be at least 1`);
  const previous = text('previousBlock');
  let previousBlock: string | null;
  if (height === 1 && (previous === '' || previous === '0')) previousBlock = null;
  else if (BLOCK_ID.test(previous)) previousBlock = previous;
  else throw new WireError(`${what}.previousBlock is not a block id`);
  const payloadHash = matching('payloadHash', HEX, 'hex');
  if (payloadHash.length !== 64) throw new WireError(`${what}.payloadHash is not 32 bytes of hex`);
  const generatorPublicKey = matching('generatorPublicKey', HEX, 'hex');
  if (generatorPublicKey.length !== 66) {
    throw new WireError(`${what}.generatorPublicKey is not a compressed public key`);
  }
  const blockSignature = matching('blockSignature', HEX, 'hex');
  if (blockSignature.length > 146) throw new WireError(`${what}.blockSignature is too long`);
  return {
    id: matching('id', BLOCK_ID, 'a block id'),
    height,
    version: integer('version'),
    timestamp: integer('timestamp'),
    previousBlock,
    numberOfTransactions: integer('numberOfTransactions'),
    totalAmount: matching('totalAmount', DECIMAL, 'a decimal amount'),
    totalFee: matching('totalFee', DECIMAL, 'a decimal amount'),
    reward: matching('reward', DECIMAL, 'a decimal amount'),
    payloadLength: integer('payloadLength'),
    payloadHash,
    generatorPublicKey,
    blockSignature,
  };
}
