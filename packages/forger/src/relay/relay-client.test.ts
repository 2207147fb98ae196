import { createLogger } from '@lni/kernel';
import type { SlotClock } from '@lni/crypto';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RelayClient } from './relay-client.js';
import { RelayError } from './relay-error.js';

/** A port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('relay client', () => {
  it('says once that it cannot connect, and keeps the system error code (ECONNREFUSED)', async () => {
    const port = await closedPort();
    const client = new RelayClient({
      address: { host: '127.0.0.1', port },
      clock: {} as SlotClock, // not reached: the connection fails first
      timeoutMs: 2_000,
      logger: createLogger({ level: 'fatal' }),
    });
    const failure = await client.currentRound().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RelayError);
    expect((failure as RelayError).systemCode).toBe('ECONNREFUSED');
    expect((failure as RelayError).message).toBe(
      `cannot connect to relay 127.0.0.1:${port} (ECONNREFUSED)`,
    );
    client.disconnect();
  });
});
