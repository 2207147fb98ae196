import { runKernel, type KernelProcess } from '@lni/cli/testing';
import {
  addressFromPassphrase,
  loadNetworkConfig,
  Milestones,
  transactionToJson,
  transfer,
} from '@lni/crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually, freePort } from '../support/free-port.js';
import { joinLoopback, publishConfig } from '../support/loopback-peers.js';
import { ApiClient, startNode, stopNode, type NodeDirs } from '../support/node-harness.js';
import {
  createTestDatabase,
  databaseEnv,
  postgresSkipReason,
  type ServerConnection,
} from '../support/postgres.js';
import { kernel } from '../support/shell.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

interface Node {
  readonly dirs: NodeDirs;
  readonly api: ApiClient;
  readonly apiPort: number;
  readonly p2pPort: number;
  readonly database: ServerConnection;
  readonly drop: () => Promise<void>;
  /** The environment the node runs with beyond its ports and database, given to the CLI too. */
  readonly env: NodeJS.ProcessEnv;
  process: KernelProcess;
}

/** A node as an operator starts it, on its own PostgreSQL database, a peer on loopback. */
async function startAdminNode(
  root: string,
  name: string,
  mode: 'core' | 'relay',
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Node> {
  const dirs = { config: join(root, name, 'config'), data: join(root, name, 'data') };
  await publishConfig(dirs.config);
  await joinLoopback(dirs.config, []);
  const [apiPort, p2pPort] = [await freePort(), await freePort()];
  const { connection, drop } = await createTestDatabase();
  const env = {
    CORE_API_PORT: String(apiPort),
    CORE_P2P_PORT: String(p2pPort),
    ...databaseEnv(connection),
    ...extraEnv,
  };
  const api = new ApiClient(`http://127.0.0.1:${apiPort}/api`);
  const process = startNode(mode, dirs, env);
  await process.waitFor('Admin socket listening', 120_000);
  return { dirs, api, apiPort, p2pPort, database: connection, drop, env: extraEnv, process };
}

/** `kernel <args> --config … --data …` for this node. */
function admin(node: Node, ...args: string[]) {
  return kernel([...args, '--config', node.dirs.config, '--data', node.dirs.data], node.env);
}

/** Whether the P2P server lets a websocket from `localAddress` open, or cuts it. */
function p2pConnection(port: number, localAddress: string): Promise<'open' | 'refused'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, { localAddress });
    socket.once('open', () => {
      socket.close();
      resolve('open');
    });
    socket.once('error', () => resolve('refused'));
  });
}

/** Two transfers from the first delegate, nonces n+1 and n+2, posted to the node's API. */
async function postTwoTransfers(node: Node): Promise<[string, string]> {
  const network = loadNetworkConfig(join(node.dirs.config, 'crypto'));
  const secrets = await delegateSecrets(node.dirs.config);
  const passphrase = secrets[0] as string;
  const sender = addressFromPassphrase(passphrase, network.network.pubKeyHash);
  const recipient = addressFromPassphrase('admin test recipient', network.network.pubKeyHash);
  const { nonce } = (await node.api.get(`/wallets/${sender}`)).data as { nonce: string };
  const milestone = new Milestones(network.milestones).at(await node.api.height());
  const transactions = [1n, 2n].map((step) =>
    transfer({ network: network.network.pubKeyHash, milestone })
      .recipientId(recipient)
      .amount(1_000n)
      .nonce(BigInt(nonce) + step)
      .sign(passphrase)
      .build(),
  );
  const answer = await node.api.post('/transactions', {
    transactions: transactions.map(transactionToJson),
  });
  expect(answer.data.accept).toHaveLength(2);
  return [transactions[0]?.id as string, transactions[1]?.id as string];
}

async function pooledRows(database: ServerConnection): Promise<string[]> {
  const client = new pg.Client({ ...database, user: database.username });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>('SELECT id FROM pool_transactions');
    return rows.map((row) => row.id).sort();
  } finally {
    await client.end();
  }
}

// An operator at the shell of a running relay: every admin command through the built `kernel`.
describe.skipIf(postgresSkipReason)('operating a running node over its admin socket', () => {
  let root: string;
  let relay: Node;
  let core: Node;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-admin-'));
    // The core's own TMPDIR, removed with the rest (the node leaves the shared directory there).
    await mkdir(join(root, 'tmp'));
    // The core node forges alone; the relay knows no peer until it is told to add it.
    [relay, core] = await Promise.all([
      startAdminNode(root, 'relay', 'relay'),
      // The core's data directory is too deep for a Unix socket path: its socket goes elsewhere.
      startAdminNode(root, join('core', 'a-data-directory-nested'.repeat(4)), 'core', {
        TMPDIR: join(root, 'tmp'),
      }),
    ]);
  }, 240_000);

  afterAll(async () => {
    for (const node of [relay, core]) {
      if (node === undefined) continue;
      await stopNode(node.process);
      await node.drop();
    }
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('status: height, sync, peers, pool and last errors, readable or as JSON', async () => {
    const { code, stdout } = await admin(relay, 'status');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^node +testnet, relay mode, pid \d+/m);
    expect(stdout).toMatch(/^height +\d+ \(block \d+\)$/m);
    expect(stdout).toMatch(/^sync +no peers to compare with$/m);
    expect(stdout).toMatch(/^peers +0 connected, 0 banned$/m);
    expect(stdout).toMatch(/^pool +0 transactions/m);
    expect(stdout).toMatch(/^last errors/m);

    const json = await admin(relay, 'status', '--json');
    const status = JSON.parse(json.stdout);
    expect(status.node).toMatchObject({ network: 'testnet', mode: 'relay' });
    expect(status.chain.height).toBeGreaterThanOrEqual(1);
    expect(status.pool).toEqual({ size: 0, bytes: 0 });
  });

  it('is a socket only its owner may open, and not reachable through the API port', async () => {
    const socket = join(relay.dirs.data, 'admin.sock');
    expect(statSync(socket).isSocket()).toBe(true);
    expect(statSync(socket).mode & 0o777).toBe(0o600);

    const base = `http://127.0.0.1:${relay.apiPort}`;
    const stop = await fetch(`${base}/operations/stop`, { method: 'POST', body: '{}' });
    expect(stop.status).toBe(404);
    expect((await fetch(`${base}/operations`)).status).toBe(404);
    expect((await fetch(`${base}/api/operations/stop`, { method: 'POST' })).status).toBe(404);
    expect((await admin(relay, 'status')).code).toBe(0);
  });

  it('a data directory too deep for a socket path has its socket in $TMPDIR/lni-admin-<uid>/, found by the CLI', async () => {
    const inData = join(core.dirs.data, 'admin.sock');
    expect(Buffer.byteLength(inData)).toBeGreaterThan(107);
    expect(existsSync(inData)).toBe(false);
    const [line] = core.process
      .stdout()
      .split('\n')
      .filter((text) => text.includes('Admin socket listening'));
    const { socket } = JSON.parse(line ?? '{}') as { socket?: string };
    expect(socket?.startsWith(join(root, 'tmp', `lni-admin-${process.getuid?.()}`, ''))).toBe(true);
    expect(statSync(socket ?? '').mode & 0o777).toBe(0o600);
    const { code, stdout } = await admin(core, 'status');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^node +testnet, core mode/m);
  });

  it('a second node started on the same data directory stops at once, saying why', async () => {
    const second = await kernel([
      'start',
      '--mode',
      'relay',
      ...['--config', relay.dirs.config, '--data', relay.dirs.data],
    ]);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `error: another node is running on data directory ${relay.dirs.data}: its admin socket ${join(relay.dirs.data, 'admin.sock')} answers\n`,
    );
    expect((await admin(relay, 'status')).code).toBe(0);
  });

  it('pool: lists, drops one from the pool and its table, refuses bad ids, flushes with --yes', async () => {
    const [first, second] = await postTwoTransfers(relay);
    const listed = await admin(relay, 'pool');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('2 transactions, best first:');
    expect(listed.stdout).toContain(first);
    expect(listed.stdout).toContain(second);

    const dropped = await admin(relay, 'pool', 'drop', second);
    expect(dropped).toMatchObject({ code: 0, stdout: `dropped ${second}\n` });
    expect(JSON.parse((await admin(relay, 'pool', '--json')).stdout)).toMatchObject([
      { id: first },
    ]);
    expect(await pooledRows(relay.database)).toEqual([first]);

    const unknown = await admin(relay, 'pool', 'drop', 'e'.repeat(64));
    expect(unknown).toMatchObject({
      code: 1,
      stderr: `error: transaction ${'e'.repeat(64)} is not in the pool\n`,
    });
    const malformed = await admin(relay, 'pool', 'drop', 'xyz');
    expect(malformed).toMatchObject({
      code: 1,
      stderr: "error: bad transaction id 'xyz': 64 lower-case hex digits\n",
    });
    // Not on a terminal and without --yes: refused, nothing dropped.
    const unconfirmed = await admin(relay, 'pool', 'flush');
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toContain('pass --yes');
    expect(await pooledRows(relay.database)).toEqual([first]);

    const flushed = await admin(relay, 'pool', 'flush', '--yes');
    expect(flushed).toMatchObject({ code: 0, stdout: 'dropped 1 transactions\n' });
    expect(await pooledRows(relay.database)).toEqual([]);
    expect((await admin(relay, 'pool')).stdout).toBe('the pool is empty\n');
  });

  it("peers ban refuses the IP's P2P connections for its time; unban lets it in again", async () => {
    expect(await p2pConnection(relay.p2pPort, '127.0.0.2')).toBe('open');

    const banned = await admin(relay, 'peers', 'ban', '127.0.0.2', '--for', '1h');
    expect(banned.code).toBe(0);
    expect(banned.stdout).toMatch(/^127\.0\.0\.2 banned until \S+Z$/m);
    const until = Date.parse(/until (\S+)/.exec(banned.stdout)?.[1] as string);
    expect(until - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(60 * 60_000);

    expect(await p2pConnection(relay.p2pPort, '127.0.0.2')).toBe('refused');
    expect(await p2pConnection(relay.p2pPort, '127.0.0.1')).toBe('open');
    expect((await admin(relay, 'peers')).stdout).toMatch(
      /1 banned:\n +127\.0\.0\.2 +until \S+ \(banned by the operator\)/,
    );

    // A follower of the log sees the unban as it happens.
    const follow = runKernel(
      ['log', '--follow', '--lines', '1', '--config', relay.dirs.config, '--data', relay.dirs.data],
      { CORE_LOG_LEVEL: 'warn' },
    );
    try {
      await eventually(async () => (follow.stdout() !== '' ? true : undefined), 20_000, 'a line');
      const unbanned = await admin(relay, 'peers', 'unban', '127.0.0.2');
      expect(unbanned).toMatchObject({ code: 0, stdout: '127.0.0.2 unbanned\n' });
      await follow.waitFor('Peer unbanned', 20_000);
    } finally {
      follow.child.kill('SIGINT');
      await follow.exited();
    }
    expect(await p2pConnection(relay.p2pPort, '127.0.0.2')).toBe('open');

    const warnings = await admin(relay, 'log', '--level', 'warn');
    expect(warnings.stdout).toMatch(/WARN +p2p: Peer banned ip=127\.0\.0\.2/);
    expect(warnings.stdout).not.toContain('INFO');
  });

  it('peers: bad input is one line, a non-zero exit code, and changes nothing', async () => {
    const cases: [string[], string][] = [
      [
        ['peers', 'ban', '300.1.1.1'],
        "error: bad IP '300.1.1.1': write an IPv4 or IPv6 address, such as 10.0.0.5\n",
      ],
      [
        ['peers', 'ban', '10.0.0.1', '--for', '1y'],
        "error: bad ban duration '1y': write a number and a unit, s, m, h or d (such as 30m or 1h), at most 3650d\n",
      ],
      [['peers', 'unban', '10.9.9.9'], 'error: 10.9.9.9 is not banned\n'],
      [
        ['peers', 'add', '10.0.0'],
        "error: bad peer address '10.0.0': write IP:PORT, such as 10.0.0.5:4000\n",
      ],
    ];
    for (const [args, stderr] of cases) {
      const answer = await admin(relay, ...args);
      expect({ args, code: answer.code, stderr: answer.stderr }).toEqual({ args, code: 1, stderr });
    }
    const unreachable = await admin(relay, 'peers', 'add', `127.0.0.1:${await freePort()}`);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^error: could not add peer 127\.0\.0\.1:\d+: .+\n$/);
    const peers = JSON.parse((await admin(relay, 'peers', '--json')).stdout);
    expect(peers).toEqual({ peers: [], bans: [] });
  });

  it('peers add dials a node, verifies it and keeps it; a forging node reports its forging', async () => {
    const added = await admin(relay, 'peers', 'add', `127.0.0.1:${core.p2pPort}`);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('peer added');
    const { peers } = JSON.parse((await admin(relay, 'peers', '--json')).stdout);
    expect(peers).toEqual([expect.objectContaining({ ip: '127.0.0.1', port: core.p2pPort })]);
    expect((await admin(relay, 'status')).stdout).toMatch(/^peers +1 connected, 0 banned$/m);

    const { stdout } = await admin(core, 'status');
    expect(stdout.split('\n').find((line) => line.startsWith('forging'))).toMatch(
      /^forging +51 delegates \(genesis_1, genesis_2, genesis_3\); next: genesis_\d+ at \S+Z$/,
    );
  }, 60_000);

  it('stop answers, then the node stops cleanly; afterwards one line says no node runs', async () => {
    const socket = join(relay.dirs.data, 'admin.sock');
    const follow = runKernel(
      ['log', '--follow', '--lines', '1', '--config', relay.dirs.config, '--data', relay.dirs.data],
      { CORE_LOG_LEVEL: 'warn' },
    );
    await eventually(async () => (follow.stdout() !== '' ? true : undefined), 20_000, 'a line');
    const stopped = await admin(relay, 'stop');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/^node (\d+) is stopping\nnode \1 stopped\n$/);
    expect(await relay.process.exited()).toEqual({ code: 0, signal: null });
    expect(existsSync(socket)).toBe(false);
    // A follower of the log sees the stop coming, then its stream ends: exit code 0.
    expect(await follow.exited()).toEqual({ code: 0, signal: null });
    expect(follow.stdout()).toContain('Stop requested over the admin socket');

    const after = await admin(relay, 'status');
    expect(after).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `error: no node is running for network testnet: ${socket} does not exist\n`,
    });
  });
});
