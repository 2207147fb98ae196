import { addressFromPublicKey, addressToBuffer } from '../identities/address.js';
import { ByteWriter } from './byte-writer.js';
import { handlerFor } from './handler-for.js';
import { TransactionError } from './transaction-error.js';
import {
  TransactionType,
  type SerializationOptions,
  type TransactionData,
} from './transaction-data.js';

const LEGACY_VENDOR_FIELD_BYTES = 64;

/**
 * The bytes version-1 signatures and ids cover (ARK's getBytesV1, the pre-AIP-11 layout):
 * type, timestamp, sender key, recipient (21 zero bytes when none), vendor field padded to 64,
 * amount, fee, asset, then the signatures not excluded.
 */
export function legacyTransactionBytes(
  data: TransactionData,
  options: SerializationOptions = {},
): Buffer {
  const handler = handlerFor(data);
  const writer = new ByteWriter(256);
  writer.u8(data.type, 'type');
  writer.u32(data.timestamp ?? 0, 'timestamp');
  writer.hex(data.senderPublicKey, 33, 'senderPublicKey');
  // ARK never wrote a recipient for second-signature and multisignature registrations.
  const carriesRecipient =
    data.type !== TransactionType.SecondSignature && data.type !== TransactionType.MultiSignature;
  if (data.recipientId !== undefined && carriesRecipient) {
    writer.bytes(addressToBuffer(data.recipientId));
  } else {
    writer.zeros(21);
  }
  const vendorField = Buffer.from(data.vendorField ?? '', 'utf8');
  if (vendorField.length > LEGACY_VENDOR_FIELD_BYTES) {
    throw new TransactionError('vendorField', 'version 1 allows at most 64 bytes');
  }
  writer.bytes(vendorField);
  writer.zeros(LEGACY_VENDOR_FIELD_BYTES - vendorField.length);
  writer.u64(data.amount, 'amount');
  writer.u64(data.fee, 'fee');
  if (handler.legacyAssetBytes !== undefined) writer.bytes(handler.legacyAssetBytes(data));
  if (data.signature !== undefined && !options.excludeSignature) {
    writer.hex(data.signature, data.signature.length / 2, 'signature');
  }
  if (data.secondSignature !== undefined && !options.excludeSecondSignature) {
    writer.hex(data.secondSignature, data.secondSignature.length / 2, 'secondSignature');
  }
  return writer.result();
}

/** The address a version-1 vote carries as recipient: the voter's own. */
export function legacyVoteRecipient(senderPublicKey: string, network: number): string {
  return addressFromPublicKey(senderPublicKey, network);
}
