import bs58 from 'bs58';
import { addressToBuffer } from '../identities/address.js';
import { hash256 } from '../hashing/hash.js';
import type { ByteReader } from './byte-reader.js';
import type { ByteWriter } from './byte-writer.js';
import { requiredField } from './required-field.js';

const ADDRESS_BYTES = 21;
/**
 * Recipients repeat (exchanges, pools, the sender's own wallet), and each base58check step costs
 * a double sha256 plus base58; remembering recent ones makes them map lookups. Sized for a boot
 * replay, which meets every active wallet again: 262,144 entries, some 40 MB at most, beside
 * wallets that take ~800 bytes each.
 */
const CACHE_SIZE = 262_144;
const textOfBytes = new Map<string, string>();
const bytesOfText = new Map<string, Buffer>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  // Oldest-first eviction keeps the memory bound without an LRU's bookkeeping.
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/** Writes an address as its 21 bytes (version byte ‖ ripemd160). */
export function writeAddress(writer: ByteWriter, address: string | undefined, field: string): void {
  const text = requiredField(address, field);
  // The cached buffer is only ever copied into the writer, never handed out.
  writer.bytes(bytesOfText.get(text) ?? remember(bytesOfText, text, decodeAddress(text)));
}

/** Reads 21 address bytes; any 21 bytes are an address, the schema checks its network. */
export function readAddress(reader: ByteReader, field: string): string {
  const bytes = reader.bytes(ADDRESS_BYTES, field);
  const key = bytes.toString('latin1');
  return textOfBytes.get(key) ?? remember(textOfBytes, key, encodeAddress(bytes));
}

// base58check with the checksum from node:crypto (OpenSSL), several times faster than the
// pure-JS sha256 inside bs58check; the text and bytes are the same.
function encodeAddress(payload: Buffer): string {
  const withChecksum = Buffer.allocUnsafe(ADDRESS_BYTES + 4);
  payload.copy(withChecksum);
  hash256(payload).copy(withChecksum, ADDRESS_BYTES, 0, 4);
  return bs58.encode(withChecksum);
}

function decodeAddress(text: string): Buffer {
  const decoded = text.length <= 64 ? bs58.decodeUnsafe(text) : undefined;
  if (decoded?.length === ADDRESS_BYTES + 4) {
    const payload = Buffer.from(decoded.subarray(0, ADDRESS_BYTES));
    if (hash256(payload).subarray(0, 4).equals(decoded.subarray(ADDRESS_BYTES))) return payload;
  }
  // Not an address: the identities module says why, with its typed error.
  return addressToBuffer(text);
}
