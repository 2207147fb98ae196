/**
 * The read tier over HTTP (issue 29): a core node forging on a private primary beside api nodes
 * reading its hot standby, both with the response cache off (every request computed).
 * - Each wallet and delegate route of the spec's examples on the api node and on the core node
 *   in the same run (core, api, core again: the api node's ratio is to the mean of the two core
 *   runs around it), target ≥ 0.5 of the core node; beside each, the CPU time per request of
 *   the core node, the api node and the standby. Then a yardstick: a bare hapi route answering a
 *   wallet row from a Map against the same route querying the standby once per request.
 * - Live delivery lag: a subscriber on the api node's /events/block.applied; lag = its receipt
 *   − the writer's commit (the NOTIFY the writer sends in the block's transaction, as this
 *   process LISTENing on the primary receives it), target p99 ≤ 1 s, reported apart for the
 *   blocks of QUIET_SECONDS (60) with no other load, of the route loads and of the mix.
 * - The heavy mix against two api nodes at once for SECONDS (60) while the core node forges:
 *   slots missed on the core node (its lni_forger_missed_slots_total), target 0.
 * Run: npx tsx packages/api/bench/read-tier.ts (WALLETS 10,000, DELEGATES 200, SECONDS 60,
 * ROUTE_SECONDS 10 per route and node after WARM_SECONDS 2 unmeasured, QUIET_SECONDS 60 of lag alone, ROUTES a regexp of route names to measure,
 * API_NODE_OPTIONS as NODE_OPTIONS of the first api node, such as a profiler's --import, and
 * CORE_NODE_OPTIONS of the core node; RATE a fixed rate in requests/s for every route run, to
 * compare CPU per request at equal load (the ratio is then 1 as long as both keep up);
 * POOL_SIZE the api nodes' database poolSize, MAX_EVENT_LOOP_DELAY their load shedding in ms,
 * 250 by default as in docker/compose.yml, 0 for none).
 * Needs PostgreSQL's server binaries (test/support/pg-replica.ts).
 */
import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { loadNetworkConfig } from '@lni/crypto';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { eventually, freePort } from '../../../test/support/free-port.js';
import { startNode, stopNode, writeSingleNodeApp } from '../../../test/support/node-harness.js';
import { startPgReplica, type PgReplica } from '../../../test/support/pg-replica.js';
import { writeApiNodeConfig } from '../../../test/support/api-node-config.js';
import {
  connectionOptions,
  databaseEnv,
  type ServerConnection,
} from '../../../test/support/postgres.js';
import { scrape } from '../../../test/support/prometheus.js';
import { buildVotingChain, votingChainBlocks } from '../../../test/support/voting-chain.js';
import { LiveLag } from './live-lag.js';
import { pathsOf, RouteRuns, type MeasuredNode, type RoutePaths } from './route-runs.js';
import { runMix } from './load.js';
import { delegateSecrets } from '../../../test/support/delegate-secrets.js';

const env = process.env;
const WALLETS = Number(env.WALLETS ?? 10_000);
const DELEGATES = Number(env.DELEGATES ?? 200);
const MIX_SECONDS = Number(env.SECONDS ?? 60);
const ROUTE_SECONDS = Number(env.ROUTE_SECONDS ?? 10);
const WARM_SECONDS = Number(env.WARM_SECONDS ?? 2);
const QUIET_SECONDS = Number(env.QUIET_SECONDS ?? 60);
const ONLY = new RegExp(env.ROUTES ?? '.');
const API_NODE_OPTIONS = env.API_NODE_OPTIONS;
const CORE_NODE_OPTIONS = env.CORE_NODE_OPTIONS;
const RATE = env.RATE === undefined ? undefined : Number(env.RATE);
/** The api nodes' database connections (each pool), the database plugin's default unless set. */
const POOL_SIZE = env.POOL_SIZE === undefined ? undefined : Number(env.POOL_SIZE);
/** The api nodes' load shedding (maxEventLoopDelayMs): 250 as in compose; 0 sheds nothing. */
const MAX_EVENT_LOOP_DELAY = Number(env.MAX_EVENT_LOOP_DELAY ?? 250);
const CONNECTIONS = 50;
const MIX_CONNECTIONS = 100;
const GENESIS_DELEGATES = 51;
const BLOCKTIME = 8;
const VOTER_EVERY = 4;
const PER_BLOCK = 150;
const ROUTE_TARGET = 0.5;
/** The wallets the lookup route asks for. */
const LOOKED_UP = 1_000;
/** A route of the table: its name, and its path or the paths its requests ask for at random. */
type Route = readonly [name: string, path: RoutePaths];
const LAG_TARGET_MS = 1_000;
const runs = new RouteRuns({ connections: CONNECTIONS, seconds: ROUTE_SECONDS, rate: RATE });

const sizes = {
  wallets: WALLETS,
  delegates: DELEGATES,
  voterEvery: VOTER_EVERY,
  perBlock: PER_BLOCK,
};
// Slot 0 far enough back that every block of the chain lies in the past when it is built.
const epochMs =
  Math.floor((Date.now() - (votingChainBlocks(sizes) + 60) * BLOCKTIME * 1000) / 1000) * 1000;

const root = await mkdtemp(join(tmpdir(), 'lni-read-tier-bench-'));
const dirs = { config: join(root, 'config'), data: join(root, 'data') };
/** Every node started, stopped at the end whatever failed. */
const nodes: KernelProcess[] = [];
let lag: LiveLag | undefined;
let pair: PgReplica | undefined;
try {
  // Durable like an operator's primary: a commit streams to the standby when it returns.
  pair = await startPgReplica({ durable: true });
  const generated = runKernel([
    'network:generate',
    ...['--network', 'readtier', '--delegates', String(GENESIS_DELEGATES)],
    ...['--blocktime', String(BLOCKTIME), '--epoch', new Date(epochMs).toISOString()],
    ...['--premine', '100000000000000000', '--config', dirs.config],
  ]);
  if ((await generated.exited()).code !== 0) throw new Error('network:generate failed');
  const secrets = await delegateSecrets(dirs.config);
  const started = performance.now();
  const chain = await buildVotingChain({
    connection: connectionOptions(pair.primary),
    dirs,
    funders: secrets,
    pubKeyHash: loadNetworkConfig(join(dirs.config, 'crypto')).network.pubKeyHash,
    ...sizes,
  });
  console.log(
    `${WALLETS} wallets, ${DELEGATES} delegates registered (beside ${GENESIS_DELEGATES} genesis ` +
      `ones), ${chain.votes} votes in ${chain.height - 1} blocks on the primary ` +
      `(${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );

  const core = await startCoreNode(pair);
  const apiNodes = await Promise.all(
    [0, 1].map((index) => startApiNode(pair as PgReplica, index, core.uri)),
  );
  await Promise.all(apiNodes.map((node) => caughtUp(node.uri, core.tip)));
  lag = await LiveLag.follow(pair, apiNodes[0]?.uri as string);
  await new Promise((resolve) => setTimeout(resolve, QUIET_SECONDS * 1000));
  lag.phase = 'route loads';
  console.log(
    `core node forging on the primary, 2 api nodes on the standby; caches off on all ` +
      `(every request computed); ${CONNECTIONS} connections, ${ROUTE_SECONDS} s per route and node`,
  );

  const delegate = chain.usernames[8 % DELEGATES] as string;
  // The lookups ask for any of LOOKED_UP wallets (every delegate), each request at random.
  const routes: Route[] = [
    ['wallets by balance', '/api/wallets?orderBy=balance:desc'],
    ['wallets/top', '/api/wallets/top'],
    [
      'wallets/{address}',
      chain.addresses.slice(0, LOOKED_UP).map((address) => `/api/wallets/${address}`),
    ],
    ['wallets filtered by balance', '/api/wallets?balance.from=3500000000&balance.to=3600000000'],
    ['delegates', '/api/delegates'],
    ['delegates by votes', '/api/delegates?orderBy=votes:desc'],
    ['delegates/{username}', chain.usernames.map((username) => `/api/delegates/${username}`)],
    ['delegates/{username}/voters', `/api/delegates/${delegate}/voters`],
  ];
  const firstApi = apiNodes[0] as (typeof apiNodes)[0];
  const standbyDirectory = join(pair.directory, 'standby');
  await measureRoutes(
    { uri: core.uri, pid: core.process.child.pid as number },
    { uri: firstApi.uri, pid: firstApi.process.child.pid as number },
    standbyDirectory,
    routes.filter(([name]) => ONLY.test(name)),
  );
  await measureYardstick(pair.standby, standbyDirectory);

  if (MIX_SECONDS > 0) {
    const mix = [
      '/api/wallets?balance.from=1000&balance.to=900000000000&nonce.from=0',
      '/api/wallets?balance.from=1000&orderBy=balance:asc&page=20',
      '/api/wallets?orderBy=balance:asc&page=90',
      '/api/delegates?orderBy=votes:desc',
      `/api/delegates/${delegate}/voters?page=2`,
      '/api/transactions?amount.from=1000',
      '/api/transactions?amount.from=10&amount.to=900000&orderBy=fee:asc',
    ];
    lag.phase = 'heavy mix';
    const missedBefore = await missedSlots(core.uri);
    const heightBefore = await heightOf(core.uri);
    const shedBefore = await Promise.all(apiNodes.map((node) => shedRequests(node.uri)));
    const results = await Promise.all(
      apiNodes.map((node) =>
        runMix(node.uri, mix, {
          connections: MIX_CONNECTIONS,
          seconds: MIX_SECONDS,
          probePath: '/api',
        }),
      ),
    );
    const missed = (await missedSlots(core.uri)) - missedBefore;
    const forged = (await heightOf(core.uri)) - heightBefore;
    for (const [index, result] of results.entries()) {
      const node = apiNodes[index] as { uri: string };
      const shed = (await shedRequests(node.uri)) - (shedBefore[index] as number);
      console.log(
        `heavy mix on api node ${index}, ${MIX_CONNECTIONS} connections, ${MIX_SECONDS} s: ` +
          `${result.rps.toFixed(0)} req/s, ${result.status503} answered 503 (${shed} shed at ` +
          `${MAX_EVENT_LOOP_DELAY} ms of event loop delay, the rest past their time budget), ` +
          `${result.errors} errors, ` +
          `probe of /api p99 ${result.probeP99.toFixed(1)} ms (max ${result.probeMax.toFixed(1)})`,
      );
    }
    console.log(
      `core node during the mix: ${forged} blocks forged, ${missed} slots missed (target 0: ` +
        `${missed === 0 ? 'met' : 'MISSED'})`,
    );
  }
  lag.report(LAG_TARGET_MS);
} finally {
  await lag?.close();
  for (const node of nodes.reverse()) await stopNode(node);
  await pair?.remove();
  await rm(root, { recursive: true, force: true });
}

/** `kernel start --mode core` on the primary: the whole network, forging alone, cache off. */
async function startCoreNode(
  replica: PgReplica,
): Promise<{ process: KernelProcess; uri: string; tip: number }> {
  await writeSingleNodeApp(dirs.config, {
    cache: { enabled: false },
    rateLimit: { enabled: false },
  });
  const [apiPort, p2pPort] = [await freePort(), await freePort()];
  const uri = `http://127.0.0.1:${apiPort}`;
  const child = startNode('core', dirs, {
    CORE_LOG_LEVEL: 'warn',
    ...(CORE_NODE_OPTIONS !== undefined && { NODE_OPTIONS: CORE_NODE_OPTIONS }),
    CORE_API_PORT: String(apiPort),
    CORE_P2P_PORT: String(p2pPort),
    ...databaseEnv(replica.primary),
  });
  nodes.push(child);
  const built = await (async () => {
    // Up once it forged on top of the stored chain (its first block closes the idle slots).
    const start = await eventually(
      async () => (await heightOf(uri).catch(() => 0)) || undefined,
      120_000,
      'the core node answering',
      () => child.child.exitCode !== null,
    );
    return eventually(
      async () => ((await heightOf(uri)) > start ? heightOf(uri) : undefined),
      120_000,
      'the core node forging',
    );
  })().catch((error: unknown) => {
    throw new Error(`${String(error)}\n${child.stdout()}\n${child.stderr()}`);
  });
  return { process: child, uri, tip: built };
}

/** `kernel start --mode api` on the standby, woken by the primary's NOTIFY, cache off. */
async function startApiNode(
  replica: PgReplica,
  index: number,
  upstream: string,
): Promise<{ process: KernelProcess; uri: string }> {
  const port = await freePort();
  const node = await writeApiNodeConfig(root, `api-${index}`, {
    networkFrom: dirs.config,
    standby: replica.standby,
    primary: replica.primary,
    port,
    upstream,
    database: { ...(POOL_SIZE !== undefined && { poolSize: POOL_SIZE }) },
    api: { cache: { enabled: false }, maxEventLoopDelayMs: MAX_EVENT_LOOP_DELAY },
  });
  const child = runKernel(
    ['start', '--mode', 'api', '--config', node.config, '--data', node.data],
    {
      CORE_LOG_LEVEL: 'warn',
      // Node's options for the first api node alone (a profiler's preload, say).
      ...(API_NODE_OPTIONS !== undefined && index === 0 && { NODE_OPTIONS: API_NODE_OPTIONS }),
    },
  );
  nodes.push(child);
  const uri = `http://127.0.0.1:${port}`;
  await eventually(
    async () =>
      (await fetch(`${uri}/health`).catch(() => undefined))?.status === 200 ? true : undefined,
    120_000,
    `api node ${index} healthy`,
    () => child.child.exitCode !== null,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${child.stdout()}\n${child.stderr()}`);
  });
  return { process: child, uri };
}

async function heightOf(uri: string): Promise<number> {
  return Number((await fetch(`${uri}/api/blocks/last`)).headers.get('x-block-height'));
}

function caughtUp(uri: string, height: number): Promise<true> {
  return eventually(
    async () => ((await heightOf(uri).catch(() => 0)) >= height ? true : undefined),
    60_000,
    `${uri} at height ${height}`,
  );
}

/** Requests the node refused at once for its event loop's delay (lni_api_shed_requests_total). */
async function shedRequests(uri: string): Promise<number> {
  const family = (await scrape(`${uri}/metrics`)).get('lni_api_shed_requests_total');
  return Number(family?.metrics[0]?.value ?? 0);
}

/** The core node's missed slots since it started, over every delegate. */
async function missedSlots(uri: string): Promise<number> {
  const family = (await scrape(`${uri}/metrics`)).get('lni_forger_missed_slots_total');
  return (family?.metrics ?? []).reduce((sum, metric) => sum + Number(metric.value ?? 0), 0);
}

/**
 * Each route on the core node, the api node, the core node again; the api node beside the two.
 * Beside the rates, the CPU time per request of the core node, and of the api node and the
 * standby's PostgreSQL (every process of the server) over the api node's run: what each answer
 * costs whatever share of the two cores each process got (an api node on a machine of its own
 * would be bound by its own column alone).
 */
async function measureRoutes(
  core: MeasuredNode,
  api: MeasuredNode,
  standbyDirectory: string,
  routes: readonly Route[],
): Promise<void> {
  const width = Math.max(...routes.map(([name]) => name.length)) + 2;
  console.log(
    [
      'route'.padEnd(width),
      'items'.padStart(5),
      'core req/s'.padStart(17),
      'p99 ms'.padStart(7),
      'api req/s'.padStart(10),
      'p99 ms'.padStart(7),
      'CPU ms/req core | api + standby'.padStart(32),
      'api/core'.padStart(9),
      `  target ≥ ${ROUTE_TARGET}`,
    ].join(' '),
  );
  for (const [name, path] of routes) {
    const paths = pathsOf(path);
    // Every path the route asks for answers the same on both nodes (the first ten of many).
    let answer: { data: unknown } = { data: undefined };
    for (const one of paths.slice(0, 10)) answer = await sameAnswer(core.uri, api.uri, one);
    const items = Array.isArray(answer.data) ? answer.data.length : 1;
    // Unmeasured: both nodes compile the route's code before either is timed on it.
    for (const { uri } of [core, api]) await runs.requestsPerSecond(uri, path, WARM_SECONDS);
    const before = await runs.measuredRun(core, path);
    const onApi = await runs.measuredRun(api, path, standbyDirectory);
    const after = await runs.measuredRun(core, path);
    const coreRps = (before.rps + after.rps) / 2;
    const ratio = onApi.rps / coreRps;
    const coreMs = (before.nodeMs + after.nodeMs) / 2;
    console.log(
      [
        name.padEnd(width),
        String(items).padStart(5),
        `${before.rps.toFixed(0)}/${after.rps.toFixed(0)}`.padStart(17),
        Math.max(before.p99, after.p99).toFixed(0).padStart(7),
        onApi.rps.toFixed(0).padStart(10),
        onApi.p99.toFixed(0).padStart(7),
        `${coreMs.toFixed(2)} | ${onApi.nodeMs.toFixed(2)} + ${onApi.standbyMs.toFixed(2)}`.padStart(
          32,
        ),
        ratio.toFixed(2).padStart(9),
        `  ${ratio >= ROUTE_TARGET ? 'met' : 'MISSED'}`,
      ].join(' '),
    );
  }
}

/**
 * The yardstick of the route table: a bare hapi server (round-trip-server.ts, no node code)
 * answering a wallet row from a Map, then by one query of the standby, then from the Map again.
 * What one PostgreSQL round trip per request costs, measured apart from the node's own code:
 * the server's CPU per request with and without it, and the standby's. (Not a bound on the
 * routes' ratio: work both nodes do alike, which this route lacks, brings their ratio nearer 1.)
 */
async function measureYardstick(standby: ServerConnection, standbyDirectory: string) {
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./round-trip-server.ts', import.meta.url)),
      `${port}`,
    ],
    {
      env: {
        ...process.env,
        PGHOST: standby.host,
        PGPORT: String(standby.port),
        PGUSER: standby.username,
        PGDATABASE: standby.database,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    await new Promise((resolve, reject) => {
      server.stdout.once('data', resolve);
      server.once('exit', (code) => reject(new Error(`round-trip-server exited (${code})`)));
    });
    const node = { uri: `http://127.0.0.1:${port}`, pid: server.pid as number };
    for (const path of ['/memory', '/postgres']) {
      await runs.requestsPerSecond(node.uri, path, WARM_SECONDS);
    }
    const before = await runs.measuredRun(node, '/memory');
    const fromPostgres = await runs.measuredRun(node, '/postgres', standbyDirectory);
    const after = await runs.measuredRun(node, '/memory');
    const memoryRps = (before.rps + after.rps) / 2;
    console.log(
      `yardstick, a bare hapi route answering a wallet row: from a Map ` +
        `${before.rps.toFixed(0)}/${after.rps.toFixed(0)} req/s ` +
        `(${((before.nodeMs + after.nodeMs) / 2).toFixed(2)} ms CPU/req), by one query of the ` +
        `standby ${fromPostgres.rps.toFixed(0)} req/s (${fromPostgres.nodeMs.toFixed(2)} + ` +
        `${fromPostgres.standbyMs.toFixed(2)} ms CPU/req): ` +
        `${(fromPostgres.rps / memoryRps).toFixed(2)} of the Map's rate`,
    );
  } finally {
    server.kill('SIGTERM');
  }
}

/**
 * The route's answer, the same from both nodes at one height (a block may land between two
 * requests): the comparison is honest only if both answer the same.
 */
async function sameAnswer(
  coreUri: string,
  apiUri: string,
  path: string,
): Promise<{ data: unknown }> {
  let difference = '';
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const answers = await Promise.all(
      [coreUri, apiUri].map(async (uri) => {
        const response = await fetch(`${uri}${path}`);
        const body = (await response.json()) as { data: unknown };
        return { height: response.headers.get('x-block-height'), body };
      }),
    );
    const [core, api] = answers as [(typeof answers)[0], (typeof answers)[0]];
    if (core.height !== api.height) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    // Equal as values: a wallet's attributes come back from jsonb in PostgreSQL's key order.
    if (isDeepStrictEqual(core.body.data, api.body.data)) return api.body;
    // The api node's height header is its head's; its rows may already be of the next block.
    difference = describeDifference(core.height, core.body.data, api.body.data);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`${path}: ${difference || 'the two nodes never answered at one height'}`);
}

/** Where two answers differ: the first item (or the whole answer) of each. */
function describeDifference(height: string | null, core: unknown, api: unknown): string {
  const [coreItems, apiItems] = [core, api].map((data) => (Array.isArray(data) ? data : [data]));
  const index = (coreItems as unknown[]).findIndex(
    (item, i) => !isDeepStrictEqual(item, (apiItems as unknown[])[i]),
  );
  const at = index === -1 ? coreItems?.length : index;
  return (
    `at height ${height} the api node's answer differs from the core node's at item ${at}\n` +
    `core: ${JSON.stringify((coreItems as unknown[])[at ?? 0])}\n` +
    `api:  ${JSON.stringify((apiItems as unknown[])[at ?? 0])}`
  );
}
