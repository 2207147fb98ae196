import type { Nes } from '@hapi/nes';

/**
 * What nes keeps of a socket that its public API does not show: the packets queued behind the
 * one being sent (nes sends one at a time and queues the rest without bound) and the websocket.
 */
interface NesSocketInternals {
  readonly _packets?: readonly { readonly message?: string }[];
  readonly _ws?: {
    readonly bufferedAmount: number;
    terminate(): void;
    close(code: number, reason: string): void;
  };
}

/**
 * Bytes waiting to reach a subscriber: queued by nes plus buffered by the websocket. A reader
 * that keeps up holds this near zero; one that stopped reading makes it grow with every message.
 * Read from nes' internals (nes 14); the slow-subscriber test fails if a nes upgrade moves them.
 */
export function backlogBytes(socket: Nes.Socket): number {
  const internals = socket as unknown as NesSocketInternals;
  let bytes = internals._ws?.bufferedAmount ?? 0;
  for (const packet of internals._packets ?? []) bytes += packet.message?.length ?? 0;
  return bytes;
}

/**
 * Drops a connection at once: a close handshake would wait behind the very backlog that got
 * the subscriber dropped.
 */
export function terminate(socket: Nes.Socket): void {
  const ws = (socket as unknown as NesSocketInternals)._ws;
  if (ws) ws.terminate();
  else void socket.disconnect();
}

/**
 * Closes a connection with a websocket close code and a reason the client sees (1008: policy
 * violation, 1013: try again later), rather than nes' bare disconnect.
 */
export function closeWith(socket: Nes.Socket, code: number, reason: string): void {
  const ws = (socket as unknown as NesSocketInternals)._ws;
  if (ws) ws.close(code, reason);
  else void socket.disconnect();
}
