import { WireError } from './wire-error.js';

/**
 * ARK Core 3.x's binary nes framing: one websocket binary message per nes message, a 14-byte
 * big-endian header, then the path, the socket id and the payload to the end of the message.
 *
 * | offset | size | field                                          |
 * | -----: | ---: | ---------------------------------------------- |
 * |      0 |    1 | version: 2 in a client's hello, 0 otherwise    |
 * |      1 |    1 | type (FrameType)                               |
 * |      2 |    4 | id; never 0                                    |
 * |      6 |    2 | status code: 200, or ≥ 400 for an error reply  |
 * |      8 |    1 | path length (≤ 100)                            |
 * |      9 |    1 | socket id length (≤ 100)                       |
 * |     10 |    2 | heartbeat interval (ms), in the hello reply    |
 * |     12 |    2 | heartbeat timeout (ms), in the hello reply     |
 */
export const FRAME_HEADER_BYTES = 14;
export const MAX_FRAME_PATH_BYTES = 100;
export const MAX_FRAME_SOCKET_BYTES = 100;
/** The version byte a client's hello carries: nes protocol 2. */
export const HELLO_VERSION = 2;

export const FrameType = {
  hello: 0,
  ping: 1,
  update: 2,
  request: 3,
  undefined: 9,
} as const;
export type FrameTypeName = keyof typeof FrameType;

const typeNames = new Map<number, FrameTypeName>(
  Object.entries(FrameType).map(([name, code]) => [code, name as FrameTypeName]),
);

export interface Frame {
  readonly version: number;
  readonly type: FrameTypeName;
  readonly id: number;
  readonly statusCode: number;
  readonly path: string;
  readonly socket: string;
  readonly heartbeat: { readonly interval: number; readonly timeout: number };
  readonly payload: Buffer;
}

/** Reads one frame; throws WireError naming what is wrong. The payload shares `bytes`. */
export function decodeFrame(bytes: Buffer): Frame {
  if (bytes.byteLength < FRAME_HEADER_BYTES) {
    throw new WireError(`frame of ${bytes.byteLength} bytes is shorter than its header`);
  }
  const code = bytes.readUInt8(1);
  const type = typeNames.get(code);
  if (type === undefined) throw new WireError(`unknown frame type ${code}`);
  const id = bytes.readUInt32BE(2);
  if (id === 0) throw new WireError('frame id 0');
  const pathLength = bytes.readUInt8(8);
  const socketLength = bytes.readUInt8(9);
  if (pathLength > MAX_FRAME_PATH_BYTES) throw new WireError(`path of ${pathLength} bytes`);
  if (socketLength > MAX_FRAME_SOCKET_BYTES) {
    throw new WireError(`socket id of ${socketLength} bytes`);
  }
  const payloadStart = FRAME_HEADER_BYTES + pathLength + socketLength;
  if (bytes.byteLength < payloadStart) {
    throw new WireError('path and socket id run past the end of the frame');
  }
  return {
    version: bytes.readUInt8(0),
    type,
    id,
    statusCode: bytes.readUInt16BE(6),
    path: bytes.toString('utf8', FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + pathLength),
    socket: bytes.toString('utf8', FRAME_HEADER_BYTES + pathLength, payloadStart),
    heartbeat: { interval: bytes.readUInt16BE(10), timeout: bytes.readUInt16BE(12) },
    payload: bytes.subarray(payloadStart),
  };
}

export interface FrameFields {
  readonly type: FrameTypeName;
  readonly id: number;
  readonly version?: number;
  readonly statusCode?: number;
  readonly path?: string;
  readonly socket?: string;
  readonly heartbeat?: { readonly interval: number; readonly timeout: number };
  readonly payload?: Buffer;
}

/** Writes one frame. Status defaults to 200 and version to 0, as ARK's writer does. */
export function encodeFrame(fields: FrameFields): Buffer {
  const path = Buffer.from(fields.path ?? '', 'utf8');
  const socket = Buffer.from(fields.socket ?? '', 'utf8');
  if (path.byteLength > MAX_FRAME_PATH_BYTES) throw new WireError(`path of ${path.byteLength}`);
  if (socket.byteLength > MAX_FRAME_SOCKET_BYTES) {
    throw new WireError(`socket id of ${socket.byteLength} bytes`);
  }
  if (!Number.isInteger(fields.id) || fields.id < 1 || fields.id > 0xffff_ffff) {
    throw new WireError(`frame id ${fields.id} is not a u32 above 0`);
  }
  const payload = fields.payload ?? Buffer.alloc(0);
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + path.byteLength + socket.byteLength);
  frame.writeUInt8(fields.version ?? 0, 0);
  frame.writeUInt8(FrameType[fields.type], 1);
  frame.writeUInt32BE(fields.id, 2);
  frame.writeUInt16BE(fields.statusCode ?? 200, 6);
  frame.writeUInt8(path.byteLength, 8);
  frame.writeUInt8(socket.byteLength, 9);
  frame.writeUInt16BE(fields.heartbeat?.interval ?? 0, 10);
  frame.writeUInt16BE(fields.heartbeat?.timeout ?? 0, 12);
  path.copy(frame, FRAME_HEADER_BYTES);
  socket.copy(frame, FRAME_HEADER_BYTES + path.byteLength);
  return payload.byteLength === 0 ? frame : Buffer.concat([frame, payload]);
}
