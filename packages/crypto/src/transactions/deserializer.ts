import { sha256 } from '../hashing/hash.js';
import { ByteReader } from './byte-reader.js';
import { DeserializationError } from './deserialization-error.js';
import { legacyTransactionBytes, legacyVoteRecipient } from './legacy-bytes.js';
import { transactionTypeHandler } from './registry.js';
import { readEcdsaSignatures, readSchnorrSignatures } from './signature-section.js';
import { TransactionType, TransactionTypeGroup, type TransactionData } from './transaction-data.js';
import type { DeserializationLimits } from './type-handler.js';

// 0xff, version, network, type u8, timestamp u32.
const V1_SENDER_OFFSET = 8;
const V1_MAX_VENDOR_FIELD_BYTES = 64;

const DEFAULT_LIMITS: DeserializationLimits = {
  maxVendorFieldLength: 255,
  maxMultiPayments: 0xffff,
  maxMultiSignatureKeys: 16,
};

const NO_LIMITS: Partial<DeserializationLimits> = {};

/**
 * A transaction from its wire bytes, id filled in. Anything that is not exactly one canonical
 * transaction is a DeserializationError with the byte offset and reason; allocation is bounded by
 * the input size and `limits`.
 */
export function deserializeTransaction(
  bytes: Uint8Array,
  limits: Partial<DeserializationLimits> = NO_LIMITS,
): TransactionData {
  const data = readTransaction(bytes, limits);
  const { version, type, senderPublicKey, network } = data as TransactionData;
  if (version === 1) {
    if (type === TransactionType.Vote) data.recipientId = voteRecipient(senderPublicKey, network);
    data.id = sha256(legacyTransactionBytes(data as TransactionData)).toString('hex');
  } else {
    data.id = sha256(bytes).toString('hex');
  }
  return data as TransactionData;
}

/**
 * The signatures in a transaction's wire bytes, read as deserializeTransaction reads them but
 * without hashing the id: what a stored transaction keeps only in its bytes.
 */
export function transactionSignatures(
  bytes: Uint8Array,
): Pick<TransactionData, 'signature' | 'secondSignature' | 'signatures'> {
  const { signature, secondSignature, signatures } = readTransaction(bytes, NO_LIMITS);
  return {
    ...(signature !== undefined && { signature }),
    ...(secondSignature !== undefined && { secondSignature }),
    ...(signatures !== undefined && { signatures }),
  };
}

/** Every field the bytes hold (not the id, nor a v1 vote's derived recipient). */
function readTransaction(bytes: Uint8Array, limits: Partial<DeserializationLimits>): MutableData {
  if (!(bytes instanceof Uint8Array)) {
    throw new DeserializationError(0, 'malformed', `expected bytes, got ${typeof bytes}`);
  }
  const bounds = limits === NO_LIMITS ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, ...limits };
  const reader = new ByteReader(bytes);
  const marker = reader.u8('marker');
  if (marker !== 0xff) {
    throw new DeserializationError(0, 'malformed', `marker: expected 0xff, got ${marker}`);
  }
  const version = reader.u8('version');
  if (version !== 1 && version !== 2) {
    throw new DeserializationError(1, 'unsupported-version', `version ${version}`);
  }
  const network = reader.u8('network');
  const typeOffset = reader.offset;
  let typeGroup: number = TransactionTypeGroup.Core;
  let type: number;
  let nonce = 0n;
  let timestamp: number | undefined;
  if (version === 1) {
    type = reader.u8('type');
    timestamp = reader.u32('timestamp');
  } else {
    typeGroup = reader.u32('typeGroup');
    type = reader.u16('type');
    nonce = reader.u64('nonce');
  }
  const handler = transactionTypeHandler(typeGroup, type);
  if (handler === undefined || !handler.versions.includes(version)) {
    throw new DeserializationError(
      typeOffset,
      'unknown-type',
      `typeGroup ${typeGroup} type ${type} version ${version}`,
    );
  }
  const senderPublicKey = reader.hex(33, 'senderPublicKey');
  const fee = reader.u64('fee');
  const vendorFieldOffset = reader.offset;
  const vendorFieldLength = reader.u8('vendorField length');
  if (vendorFieldLength > 0 && !handler.hasVendorField) {
    throw new DeserializationError(
      vendorFieldOffset,
      'malformed',
      `${handler.feeKey} has no vendorField`,
    );
  }
  const maxVendorField =
    version === 1
      ? Math.min(V1_MAX_VENDOR_FIELD_BYTES, bounds.maxVendorFieldLength)
      : bounds.maxVendorFieldLength;
  if (vendorFieldLength > maxVendorField) {
    throw new DeserializationError(
      vendorFieldOffset,
      'oversized',
      `vendorField: ${vendorFieldLength} bytes, at most ${maxVendorField}`,
    );
  }
  const vendorField =
    vendorFieldLength > 0 ? reader.utf8(vendorFieldLength, 'vendorField') : undefined;
  const assetFields = handler.readAsset(reader, bounds);
  const signatures = version === 1 ? readEcdsaSignatures(reader) : readSchnorrSignatures(reader);

  // One object, filled in place: this is the hot path of block and pool intake.
  const data: MutableData = { version, network, typeGroup, type, nonce, senderPublicKey, fee };
  if (timestamp !== undefined) data.timestamp = timestamp;
  if (vendorField !== undefined) data.vendorField = vendorField;
  Object.assign(data, assetFields);
  if (signatures.signature !== undefined) data.signature = signatures.signature;
  if (signatures.secondSignature !== undefined) data.secondSignature = signatures.secondSignature;
  if (signatures.signatures !== undefined) data.signatures = signatures.signatures;
  return data;
}

type MutableData = { -readonly [K in keyof TransactionData]?: TransactionData[K] };

function voteRecipient(senderPublicKey: string, network: number): string {
  try {
    return legacyVoteRecipient(senderPublicKey, network);
  } catch (error) {
    // v1 votes name the voter's address, which needs a valid key.
    throw new DeserializationError(V1_SENDER_OFFSET, 'malformed', 'senderPublicKey: invalid key', {
      cause: error,
    });
  }
}
