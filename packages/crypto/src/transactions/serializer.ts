import { ByteWriter } from './byte-writer.js';
import { handlerFor } from './handler-for.js';
import { TransactionError } from './transaction-error.js';
import type { SerializationOptions, TransactionData } from './transaction-data.js';

const MARKER = 0xff;
const MAX_VENDOR_FIELD_BYTES = 255;

/**
 * The wire bytes of a transaction in ARK 3.0's layout: 0xff, version, network, then for v2
 * typeGroup u32, type u16, nonce u64 (v1: type u8, timestamp u32), sender key, fee u64, vendor
 * field, asset, signatures. With options, the bytes a signature or hash covers.
 */
export function serializeTransaction(
  data: TransactionData,
  options: SerializationOptions = {},
): Buffer {
  const handler = handlerFor(data);
  const writer = new ByteWriter(256);
  writer.u8(MARKER, 'marker');
  writer.u8(data.version, 'version');
  writer.u8(data.network, 'network');
  if (data.version === 1) {
    writer.u8(data.type, 'type');
    writer.u32(data.timestamp ?? 0, 'timestamp');
  } else {
    writer.u32(data.typeGroup, 'typeGroup');
    writer.u16(data.type, 'type');
    writer.u64(data.nonce, 'nonce');
  }
  writer.hex(data.senderPublicKey, 33, 'senderPublicKey');
  writer.u64(data.fee, 'fee');
  writeVendorField(writer, handler.hasVendorField ? data.vendorField : undefined);
  handler.writeAsset(data, writer);
  writeSignatures(writer, data, options);
  return writer.result();
}

function writeVendorField(writer: ByteWriter, vendorField: string | undefined): void {
  if (vendorField === undefined || vendorField === '') {
    writer.u8(0, 'vendorField');
    return;
  }
  const bytes = Buffer.from(vendorField, 'utf8');
  if (bytes.length > MAX_VENDOR_FIELD_BYTES) {
    throw new TransactionError('vendorField', `${bytes.length} bytes, at most 255`);
  }
  writer.u8(bytes.length, 'vendorField');
  writer.bytes(bytes);
}

function writeSignatures(
  writer: ByteWriter,
  data: TransactionData,
  options: SerializationOptions,
): void {
  if (data.signature !== undefined && !options.excludeSignature) {
    writeSignature(writer, data.signature, data.version, 'signature');
  }
  if (data.secondSignature !== undefined && !options.excludeSecondSignature) {
    writeSignature(writer, data.secondSignature, data.version, 'secondSignature');
  }
  if (data.signatures !== undefined && !options.excludeMultiSignature) {
    if (data.version === 1) {
      throw new TransactionError('signatures', 'version-1 multisignatures are not supported');
    }
    data.signatures.forEach((signature, index) =>
      writer.hex(signature, 65, `signatures[${index}]`),
    );
  }
}

function writeSignature(
  writer: ByteWriter,
  signature: string,
  version: number,
  field: string,
): void {
  // v2 signatures are 64-byte Schnorr; v1 are DER ECDSA of 8 to 72 bytes.
  const length = version === 2 ? 64 : signature.length / 2;
  if (version === 1 && (!Number.isInteger(length) || length < 8 || length > 72)) {
    throw new TransactionError(field, 'expected a DER signature of 8-72 bytes');
  }
  writer.hex(signature, length, field);
}
