import { WireError } from './wire-error.js';

/**
 * ARK packs lists of serialized transactions (and of getBlocks' headers) as, per item, a u32
 * big-endian length followed by the item's bytes.
 */
export function packLengthPrefixed(items: readonly Uint8Array[]): Buffer {
  let size = 0;
  for (const item of items) size += 4 + item.byteLength;
  const packed = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const item of items) {
    offset = packed.writeUInt32BE(item.byteLength, offset);
    packed.set(item, offset);
    offset += item.byteLength;
  }
  return packed;
}

/**
 * The items of a packed list, as views into `bytes`. Unlike ARK's reader, which stops quietly,
 * a truncated or empty item or more than `maxItems` items is an error naming `what`.
 */
export function unpackLengthPrefixed(buffer: Buffer, maxItems: number, what: string): Buffer[] {
  const items: Buffer[] = [];
  let offset = 0;
  while (offset < buffer.byteLength) {
    if (items.length === maxItems) throw new WireError(`${what}: more than ${maxItems} items`);
    if (offset + 4 > buffer.byteLength) throw new WireError(`${what}: truncated length`);
    const length = buffer.readUInt32BE(offset);
    offset += 4;
    if (length === 0) throw new WireError(`${what}[${items.length}]: empty item`);
    if (offset + length > buffer.byteLength) {
      throw new WireError(`${what}[${items.length}]: ${length} bytes announced, fewer sent`);
    }
    items.push(buffer.subarray(offset, offset + length));
    offset += length;
  }
  return items;
}
