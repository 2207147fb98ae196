import { parentPort } from 'node:worker_threads';
import { verifyAll, verifyEach } from './verification-item.js';
import { unpackItems } from './wire.js';

/** A chunk of work from the pool: `each` answers per item, `all` answers one boolean. */
export interface WorkerRequest {
  readonly id: number;
  readonly mode: 'each' | 'all';
  readonly packed: ArrayBuffer;
}

/** Asks the worker to stop once it has answered what it was sent before. */
export interface WorkerStop {
  readonly stop: true;
}

export interface WorkerResponse {
  readonly id: number;
  /** One byte per item (1 valid) for `each`; one byte for `all`. */
  readonly results: Uint8Array;
}

if (parentPort === null) {
  throw new Error('verification worker must run inside a worker thread');
}
const port = parentPort;

port.on('message', (message: WorkerRequest | WorkerStop) => {
  if ('stop' in message) {
    // Nothing else keeps the thread alive: it ends once this handler returns.
    port.close();
    return;
  }
  const { id, mode, packed } = message;
  const items = unpackItems(packed);
  const results =
    mode === 'all'
      ? Uint8Array.of(verifyAll(items) ? 1 : 0)
      : Uint8Array.from(verifyEach(items), (valid) => (valid ? 1 : 0));
  const response: WorkerResponse = { id, results };
  port.postMessage(response, [results.buffer]);
});
