import { BlockDeserializationError } from './block-error.js';

/** Bounds-checked little-endian reads over a byte array. */
export class BlockReader {
  readonly #buffer: Buffer;
  offset = 0;

  constructor(bytes: Uint8Array) {
    this.#buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  remaining(): number {
    return this.#buffer.length - this.offset;
  }

  u32(field: string): number {
    this.#need(4, field);
    const value = this.#buffer.readUInt32LE(this.offset);
    this.offset += 4;
    return value;
  }

  u64(field: string): bigint {
    this.#need(8, field);
    const value = this.#buffer.readBigUInt64LE(this.offset);
    this.offset += 8;
    return value;
  }

  peekByte(at: number, field: string): number {
    this.#need(at + 1, field);
    return this.#buffer[this.offset + at]!;
  }

  /** A copy, so the result does not pin a large input buffer. */
  bytes(length: number, field: string): Buffer {
    this.#need(length, field);
    const part = Buffer.from(this.#buffer.subarray(this.offset, this.offset + length));
    this.offset += length;
    return part;
  }

  slice(start: number, end: number): Buffer {
    return this.#buffer.subarray(start, end);
  }

  #need(length: number, field: string): void {
    if (length > this.remaining()) {
      throw new BlockDeserializationError(
        this.offset,
        field,
        `needs ${length} bytes, only ${this.remaining()} left`,
      );
    }
  }
}
