import type { BlockHeader } from '@lni/crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PeerResponseError } from '../errors.js';
import { MemoryChain } from '../testing/memory-chain.js';
import { startTestNode, type TestNode } from '../testing/test-node.js';
import { PeerConnection } from '../transport/peer-connection.js';
import { currentRoundReplySchema } from '../wire/current-round.js';
import {
  NetworkStatus,
  networkStateReplySchema,
  unconfirmedTransactionsReplySchema,
} from '../wire/internal-messages.js';
import { routeId, type InternalRoute } from '../wire/routes.js';
import type { ForgingRound, RoundDelegate } from '@lni/crypto';
import type { ForgingSource } from '@lni/state/contracts';

// The ledger (@lni/state) registers the real forgingSource; these tests use an in-test ForgingSource.
const nodes: TestNode[] = [];
const connections: PeerConnection[] = [];
const children: ChildProcess[] = [];
/** The temporary directories of node processes, which are killed and cannot remove their own. */
const directories: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGKILL');
    child.kill('SIGCONT');
  }
  await Promise.all(
    directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })),
  );
  for (const connection of connections.splice(0)) connection.close();
  await Promise.all(nodes.splice(0).map((node) => node.stop()));
});

/** A test node in a child process of its own (killed after the test), to be frozen by a test. */
async function nodeProcess(height: number): Promise<{ child: ChildProcess; port: number }> {
  const script = fileURLToPath(
    new URL('../testing/__fixtures__/test-node-process.ts', import.meta.url),
  );
  const directory = await mkdtemp(join(tmpdir(), 'lni-p2p-process-'));
  directories.push(directory);
  const child = spawn(process.execPath, ['--import', 'tsx', script, String(height)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // Its node's directory goes in one this test removes, since the node is killed, not stopped.
    env: { ...process.env, TMPDIR: directory },
  });
  children.push(child);
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { child, port: Number(line) };
}

async function node(input: Parameters<typeof startTestNode>[0] = {}): Promise<TestNode> {
  const started = await startTestNode(input);
  nodes.push(started);
  return started;
}

/** Asks an internal route as ARK's forger does: JSON `{}` in, JSON out, no headers. */
async function ask(target: TestNode, route: InternalRoute, body: object = {}): Promise<unknown> {
  const address = `127.0.0.1:${target.port}`;
  const connection = await PeerConnection.open(`ws://${address}`, { address, timeoutMs: 3_000 });
  connections.push(connection);
  const reply = await connection.request(routeId(route), Buffer.from(JSON.stringify(body)));
  return JSON.parse(reply.toString('utf8'));
}

const delegate = (n: number): RoundDelegate => ({
  publicKey: `03${String(n).padStart(2, '0').repeat(32)}`,
  address: `D${n}`,
  username: `genesis_${n}`,
  balance: '1000',
  voteBalance: '245000000000000',
  nonce: '2',
  rank: n,
});

function forgingOf(chain: MemoryChain, transactions: string[]): ForgingSource {
  return {
    currentRound: (): ForgingRound<BlockHeader> => ({
      round: 3,
      reward: 200_000_000n,
      slotTimestamp: 1_000,
      canForge: true,
      delegates: [delegate(1), delegate(2)],
      currentForger: delegate(1).publicKey,
      nextForger: delegate(2).publicKey,
      lastBlock: chain.status().header,
    }),
    transactionsForForging: async () => transactions,
    poolSize: () => 17,
  };
}

describe('internal routes for forgers, in ARK Core 3.x shapes', () => {
  it('serve the current round as ARK forgers read it', async () => {
    const chain = new MemoryChain({ height: 9 });
    const relay = await node({ chain, forging: forgingOf(chain, ['ff00', 'ee11']) });
    const round = await ask(relay, 'getCurrentRound');
    expect(currentRoundReplySchema.validate(round).error).toBeUndefined();
    expect(round).toMatchObject({
      current: 3,
      reward: 200_000_000,
      timestamp: 1_000,
      canForge: true,
      currentForger: { publicKey: delegate(1).publicKey, delegate: { username: 'genesis_1' } },
      nextForger: { publicKey: delegate(2).publicKey },
      lastBlock: { id: chain.status().header.id, height: 9 },
    });
    const unconfirmed = await ask(relay, 'getUnconfirmedTransactions');
    expect(unconfirmedTransactionsReplySchema.validate(unconfirmed).error).toBeUndefined();
    expect(unconfirmed).toEqual({
      poolSize: 17,
      transactions: ['ff00', 'ee11'],
    });
    expect(await ask(relay, 'syncBlockchain')).toBe(true);
    expect(await ask(relay, 'emitEvent', { event: 'block.forged', body: { height: 10 } })).toBe(
      true,
    );
    // A forger is not a peer: the relay does not dial it back or list it.
    expect(relay.kernel.cradle.peerRepository.size).toBe(0);
  });

  it('answer 499 ("not ready") while the node has no ledger to forge on', async () => {
    const relay = await node();
    const error = await ask(relay, 'getCurrentRound').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PeerResponseError);
    expect((error as PeerResponseError).statusCode).toBe(499);
  });

  it('close the socket of IPs outside remoteAccess', async () => {
    const chain = new MemoryChain({ height: 3 });
    const relay = await node({
      chain,
      forging: forgingOf(chain, []),
      options: { remoteAccess: ['192.0.2.7'] },
    });
    for (const route of [
      'getCurrentRound',
      'getUnconfirmedTransactions',
      'getNetworkState',
    ] as const) {
      const error = await ask(relay, route).catch((caught: unknown) => caught);
      expect((error as PeerResponseError).kind, route).toBe('disconnected');
    }
  });

  it('take remoteAccess from CORE_P2P_REMOTE_ACCESS (comma-separated), in place of app.json', async () => {
    const chain = new MemoryChain({ height: 3 });
    // app.json allows loopback; the variable names other addresses only: loopback is refused.
    const elsewhere = await node({
      chain,
      forging: forgingOf(chain, []),
      options: { remoteAccess: ['127.0.0.1'] },
      env: { CORE_P2P_REMOTE_ACCESS: '192.0.2.7, 10.0.0.0/8' },
    });
    const refused = await ask(elsewhere, 'getCurrentRound').catch((caught: unknown) => caught);
    expect((refused as PeerResponseError).kind).toBe('disconnected');
    // app.json names another address; the variable adds loopback's range: loopback is served.
    const here = await node({
      chain,
      forging: forgingOf(chain, []),
      options: { remoteAccess: ['192.0.2.7'] },
      env: { CORE_P2P_REMOTE_ACCESS: '192.0.2.7,127.0.0.0/8' },
    });
    expect(await ask(here, 'getCurrentRound')).toMatchObject({ current: 3, canForge: true });
  });

  it('stop start-up on a CORE_P2P_REMOTE_ACCESS entry that is no IP, naming the variable', async () => {
    const failure = await node({ env: { CORE_P2P_REMOTE_ACCESS: '10.0.0.0/8,relay' } }).catch(
      (caught: unknown) => caught,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/remoteAccess.*CORE_P2P_REMOTE_ACCESS/);
    expect((failure as Error).message).toMatch(/valid ip address/i);
  });

  it('report the network state as ARK does: quorum details and the blocks above ours', async () => {
    const base = new MemoryChain({ height: 10 });
    const level = await node({ chain: new MemoryChain({ base, height: 10 }) });
    const ahead = await node({ chain: new MemoryChain({ base, height: 11 }) });
    const farAhead = await node({ chain: new MemoryChain({ base, height: 13 }) });
    const fork = new MemoryChain({ base, height: 8 });
    fork.extend(2, 'other'); // its own blocks 9 and 10: same height as ours, another chain
    const forked = await node({ chain: fork });
    const behind = await node({ chain: new MemoryChain({ base, height: 8 }) });
    const relay = await node({
      chain: new MemoryChain({ base, height: 10 }),
      seeds: [level, ahead, farAhead, forked, behind].map((peer) => ({
        ip: '127.0.0.1',
        port: peer.port,
      })),
      options: { minimumNetworkReach: 3 },
    });
    const state = await ask(relay, 'getNetworkState');
    const { error, value } = networkStateReplySchema.validate(state);
    expect(error).toBeUndefined();
    expect(value).toMatchObject({
      status: NetworkStatus.Default,
      nodeHeight: 10,
      lastBlockId: base.headers[9]!.id,
      quorumDetails: {
        // Level and behind are on our chain at or below our height; the fork is not.
        peersQuorum: 2,
        peersNoQuorum: 3,
        peersOverHeight: 2,
        peersForked: 1,
      },
    });
    expect(Object.values(value.quorumDetails.peersOverHeightBlockHeaders)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: ahead.chain.status().header.id, height: 11 }),
        expect.objectContaining({ id: farAhead.chain.status().header.id, height: 13 }),
      ]),
    );

    const lonely = await node({ options: { minimumNetworkReach: 20 } });
    expect(await ask(lonely, 'getNetworkState')).toMatchObject({
      status: NetworkStatus.BelowMinimumPeers,
    });
  });

  it("count only the peers that answer now: a frozen peer's old status is no vote for our tip", async () => {
    const frozen = await nodeProcess(10);
    const level = await node({ chain: new MemoryChain({ height: 10 }) });
    const relay = await node({
      chain: new MemoryChain({ height: 10 }),
      seeds: [level.port, frozen.port].map((port) => ({ ip: '127.0.0.1', port })),
      options: { minimumNetworkReach: 2 },
    });
    expect(await ask(relay, 'getNetworkState')).toMatchObject({
      status: NetworkStatus.Default,
      quorumDetails: { peersQuorum: 2, peersNoQuorum: 0 },
    });

    // Its socket stays open and its last status said "level with you"; now it answers nothing.
    frozen.child.kill('SIGSTOP');
    expect(await ask(relay, 'getNetworkState')).toMatchObject({
      status: NetworkStatus.BelowMinimumPeers,
      quorumDetails: { peersQuorum: 1, peersNoQuorum: 0 },
    });
  });
});
