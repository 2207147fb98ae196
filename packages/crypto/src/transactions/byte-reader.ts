import { DeserializationError } from './deserialization-error.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads little-endian fields from bytes; every read past the end is a DeserializationError. */
export class ByteReader {
  readonly #bytes: Buffer;
  #offset = 0;

  constructor(bytes: Uint8Array) {
    this.#bytes = Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get offset(): number {
    return this.#offset;
  }

  get remaining(): number {
    return this.#bytes.length - this.#offset;
  }

  /** The byte at `offset` positions ahead, without consuming it. */
  peek(ahead = 0): number | undefined {
    return this.#bytes[this.#offset + ahead];
  }

  u8(field: string): number {
    this.#need(1, field);
    return this.#bytes[this.#offset++] as number;
  }

  u16(field: string): number {
    this.#need(2, field);
    const value = this.#bytes.readUInt16LE(this.#offset);
    this.#offset += 2;
    return value;
  }

  u32(field: string): number {
    this.#need(4, field);
    const value = this.#bytes.readUInt32LE(this.#offset);
    this.#offset += 4;
    return value;
  }

  u64(field: string): bigint {
    this.#need(8, field);
    const value = this.#bytes.readBigUInt64LE(this.#offset);
    this.#offset += 8;
    return value;
  }

  /** A view of the next `length` bytes (no copy). */
  bytes(length: number, field: string): Buffer {
    this.#need(length, field);
    const view = this.#bytes.subarray(this.#offset, this.#offset + length);
    this.#offset += length;
    return view;
  }

  hex(length: number, field: string): string {
    this.#need(length, field);
    const text = this.#bytes.toString('hex', this.#offset, this.#offset + length);
    this.#offset += length;
    return text;
  }

  /** Strict UTF-8: text that would not serialize back to the same bytes is refused. */
  utf8(length: number, field: string): string {
    const start = this.#offset;
    const view = this.bytes(length, field);
    // Plain ASCII (the usual vendor field and every username) needs no validating decoder.
    if (isAscii(view)) return view.toString('latin1');
    try {
      return utf8.decode(view);
    } catch {
      // TextDecoder reports only "invalid"; the offset and field say where.
      throw new DeserializationError(start, 'malformed', `${field}: not valid UTF-8`);
    }
  }

  /** Fails unless `count` items of `itemSize` bytes fit in what is left, before allocating. */
  assertFits(count: number, itemSize: number, field: string): void {
    if (count * itemSize > this.remaining) {
      throw new DeserializationError(
        this.#offset,
        'oversized',
        `${field}: ${count} items of ${itemSize} bytes declared, ${this.remaining} bytes left`,
      );
    }
  }

  #need(length: number, field: string): void {
    if (length > this.remaining) {
      throw new DeserializationError(
        this.#offset,
        'truncated',
        `${field}: needs ${length} bytes, ${this.remaining} left`,
      );
    }
  }
}

function isAscii(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] as number) > 0x7f) return false;
  return true;
}
