import type { Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { p2pPlugin } from './plugin.js';
import { startTestNode, type TestNode } from './testing/test-node.js';

let node: TestNode | undefined;
afterEach(async () => {
  await node?.stop();
  node = undefined;
});

describe('the p2p plugin', () => {
  it('takes host and port from CORE_P2P_HOST and CORE_P2P_PORT', async () => {
    node = await startTestNode({
      options: { host: '0.0.0.0', port: 4000 },
      env: { CORE_P2P_HOST: '127.0.0.1', CORE_P2P_PORT: '0' },
    });
    expect(node.kernel.cradle.p2pServer.uri).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(node.port).not.toBe(4000);
  });

  it('refuses to boot without a ledger registered as chain, naming it', async () => {
    let failure: unknown;
    try {
      const kernel = await startTestKernel({
        plugins: [{ plugin: p2pPlugin as Plugin<object>, options: { host: '127.0.0.1', port: 0 } }],
      });
      await kernel.stop();
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/chain/);
  });

  it('answers plain HTTP with 404: the routes exist only over the websocket, as in ARK', async () => {
    node = await startTestNode();
    const response = await fetch(`http://127.0.0.1:${node.port}/p2p/peer/getStatus`, {
      method: 'POST',
    });
    expect(response.status).toBe(404);
  });
});
