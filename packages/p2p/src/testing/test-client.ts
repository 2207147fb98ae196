import WebSocket from 'ws';
import { OutgoingThrottle } from '../limits/outgoing-throttle.js';
import { PeerClient } from '../peers/peer-client.js';
import { PeerConnection } from '../transport/peer-connection.js';
import type { RequestHeaders } from '../wire/messages.js';

/**
 * A peer's client to a test node on 127.0.0.1, speaking as a node that announces `headers`
 * (version 3.9.1 and no port by default: a peer that is not dialled back).
 */
export async function connectTestClient(
  port: number,
  headers: RequestHeaders = { version: '3.9.1' },
  {
    timeoutMs = 3_000,
    throttle = new OutgoingThrottle({}, { points: 1e6, durationSeconds: 1 }),
  } = {},
): Promise<PeerClient> {
  const address = `127.0.0.1:${port}`;
  const connection = await PeerConnection.open(`ws://${address}`, { address, timeoutMs });
  return new PeerClient({ ip: '127.0.0.1', port, connection, headers, throttle });
}

/**
 * A bare websocket to a node, to send it any bytes at all (malformed frames, fuzz) and see
 * whether it closes the connection.
 */
export class RawSocket {
  readonly received: Buffer[] = [];
  private closedAt: number | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.received.push(data as Buffer));
    socket.on('close', () => {
      this.closedAt = Date.now();
    });
    socket.on('error', () => undefined);
  }

  static async open(port: number): Promise<RawSocket> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new RawSocket(socket);
  }

  get isOpen(): boolean {
    return this.closedAt === undefined && this.socket.readyState === WebSocket.OPEN;
  }

  send(data: Buffer | string, binary = typeof data !== 'string'): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(data, { binary });
  }

  close(): void {
    this.socket.terminate();
  }
}
