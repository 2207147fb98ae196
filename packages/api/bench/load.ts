import autocannon from 'autocannon';
import { quantile } from '../../../test/support/quantile.js';

/**
 * Puts each route under `connections` concurrent connections for `seconds` (autocannon in its
 * own thread, so it does not share the server's event loop) and prints requests/s and p50/p99,
 * each relative to the first route, which answers a constant.
 */
export async function loadRoutes(
  uri: string,
  routes: readonly (readonly [name: string, path: string])[],
  { connections, seconds, nameWidth }: { connections: number; seconds: number; nameWidth: number },
): Promise<void> {
  console.log(
    'route'.padEnd(nameWidth),
    'req/s'.padStart(9),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
  );
  let constant = 0;
  for (const [index, [name, path]] of routes.entries()) {
    const result = await load(uri, path, connections, seconds);
    if (result.non2xx > 0) throw new Error(`${path}: ${result.non2xx} non-2xx answers`);
    const rps = result.requests.average;
    if (index === 0) constant = rps;
    console.log(
      name.padEnd(nameWidth),
      rps.toFixed(0).padStart(9),
      result.latency.p50.toFixed(1).padStart(8),
      result.latency.p99.toFixed(1).padStart(8),
      index === 0 ? '' : `${((rps / constant) * 100).toFixed(0)}% of constant`,
    );
  }
}

function load(uri: string, path: string, connections: number, seconds: number) {
  return autocannon({ url: `${uri}${path}`, connections, duration: seconds, workers: 1 });
}

/** A route of the scale bench; the first one answers a constant (the yardstick). */
export interface Case {
  readonly name: string;
  readonly path: string;
  /** A yardstick rather than a route under test: printed with this note instead of a target. */
  readonly yardstick?: string;
  /** A yardstick's ratio is to this route's cached req/s (its own answer being a constant). */
  readonly cachedOf?: string;
}

export interface Measured {
  readonly rps: number;
  readonly p99: number;
  /** Items in one answer (`data.length`), which decides the route's target. */
  readonly items: number;
  /** Answers other than 2xx (503: past a time budget). */
  readonly non2xx: number;
}

/** One route under load, with the number of items in its answer. */
async function measure(
  uri: string,
  path: string,
  { connections, seconds }: { connections: number; seconds: number },
): Promise<Measured> {
  const body = (await (await fetch(`${uri}${path}`)).json()) as { data: unknown };
  const items = Array.isArray(body.data) ? body.data.length : 1;
  const result = await load(uri, path, connections, seconds);
  return { rps: result.requests.average, p99: result.latency.p99, items, non2xx: result.non2xx };
}

/** Each case in turn (the first, the constant route, included), as a warm-up. */
export async function warmUp(
  uri: string,
  cases: readonly Case[],
  options: { connections: number; seconds: number },
): Promise<void> {
  for (const { path } of cases) await measure(uri, path, options);
}

/** A route measured beside its two yardsticks. */
export interface Beside {
  readonly uncached: Measured;
  /** The same route right after, served from the response cache. */
  readonly cached: Measured;
  /** The constant route's req/s, the mean of its runs just before and just after this route. */
  readonly constantRps: number;
}

/**
 * Every case after the first (the constant route) uncached, then cached, each followed by the
 * constant route again: a route's ratios are to yardsticks measured within seconds of it. A
 * shared machine's speed drifts by half within minutes (seen here: the constant route at 5,700
 * and 9,800 req/s in one hour), so one baseline for a pass of several minutes would judge the
 * late routes by the machine's speed when the pass began. `cache` turns the response cache on.
 */
export async function measureBeside(
  uri: string,
  cases: readonly Case[],
  options: { connections: number; seconds: number; cache: (on: boolean) => void },
): Promise<{ readonly constant: readonly Measured[]; readonly routes: readonly Beside[] }> {
  const [constantCase, ...routes] = cases as [Case, ...Case[]];
  const constant = [await measure(uri, constantCase.path, options)];
  const measured: Beside[] = [];
  for (const { path } of routes) {
    options.cache(false);
    const uncached = await measure(uri, path, options);
    options.cache(true);
    const cached = await measure(uri, path, options);
    options.cache(false);
    const before = constant.at(-1) as Measured;
    const after = await measure(uri, constantCase.path, options);
    constant.push(after);
    measured.push({ uncached, cached, constantRps: (before.rps + after.rps) / 2 });
  }
  return { constant, routes: measured };
}

/**
 * Every route beside its target, as the issue sets them for the uncached path: an answer of at
 * most 10 items at ≥ 40 % of the constant route with p99 < 50 ms; a larger answer at ≥ 40 % of
 * the same route served from the cache (which measures what sending those bytes costs).
 */
export function printAgainstTargets(
  cases: readonly Case[],
  { constant, routes }: Awaited<ReturnType<typeof measureBeside>>,
): void {
  const width = Math.max(...cases.map((c) => c.name.length)) + 2;
  console.log(
    [
      'route'.padEnd(width),
      'items'.padStart(5),
      'uncached req/s'.padStart(15),
      'p99 ms'.padStart(7),
      'cached req/s'.padStart(13),
      'p99 ms'.padStart(7),
      'non-2xx'.padStart(8),
      '  target (uncached)                     ratio   ',
    ].join(' '),
  );
  const rates = constant.map((run) => run.rps);
  const mean = rates.reduce((sum, rps) => sum + rps, 0) / rates.length;
  console.log(
    [
      (cases[0] as Case).name.padEnd(width),
      '1'.padStart(5),
      mean.toFixed(0).padStart(15),
      String(Math.max(...constant.map((run) => run.p99))).padStart(7),
      '-'.padStart(13),
      '-'.padStart(7),
      `${constant.reduce((sum, run) => sum + run.non2xx, 0)}/-`.padStart(8),
      `  yardstick, ${rates.length} runs between the routes: ` +
        `${Math.min(...rates).toFixed(0)}-${Math.max(...rates).toFixed(0)} req/s`,
    ].join(' '),
  );
  for (const [index, { name, yardstick, cachedOf }] of cases.slice(1).entries()) {
    const { uncached: off, cached: on, constantRps } = routes[index] as Beside;
    // Measured against what the route's own target is measured against.
    const small = off.items <= 10;
    const ratio = small ? off.rps / constantRps : off.rps / on.rps;
    const other = cases.slice(1).findIndex((c) => c.name === cachedOf);
    let verdict: string;
    if (yardstick !== undefined && other !== -1) {
      const cachedRps = (routes[other] as Beside).cached.rps;
      verdict = `${yardstick} ${pct(off.rps / cachedRps)} of that route cached`;
    } else if (yardstick !== undefined) {
      verdict = `${yardstick} ${pct(ratio)} of ${small ? 'constant' : 'cached'}`;
    } else {
      const met = ratio >= 0.4 && (!small || off.p99 < 50) && off.non2xx === 0;
      verdict = small
        ? `≥ 40% of constant, p99 < 50 ms   ${pct(ratio)}  ${met ? 'met' : 'MISSED'}`
        : `≥ 40% of this route cached        ${pct(ratio)}  ${met ? 'met' : 'MISSED'}`;
    }
    console.log(
      [
        name.padEnd(width),
        String(off.items).padStart(5),
        off.rps.toFixed(0).padStart(15),
        off.p99.toFixed(0).padStart(7),
        on.rps.toFixed(0).padStart(13),
        on.p99.toFixed(0).padStart(7),
        `${off.non2xx}/${on.non2xx}`.padStart(8),
        `  ${verdict}`,
      ].join(' '),
    );
  }
}

const pct = (ratio: number) => `${(ratio * 100).toFixed(0)}%`.padStart(6);

/**
 * Follows `meta.next` from `path` to the end, one request at a time: the time per page at the
 * start and at the end (a keyset walk costs the same at any depth), and an offset request for
 * the last page, for comparison.
 */
export async function walkCursor(
  uri: string,
  path: string,
): Promise<{
  pages: number;
  items: number;
  ms: number;
  firstMs: number;
  lastMs: number;
  offsetMs: number;
  retries: number;
}> {
  const times: number[] = [];
  let items = 0;
  let next: string | null = path;
  const started = performance.now();
  let retries = 0;
  while (next !== null) {
    const before = performance.now();
    const response = await fetch(`${uri}${next}`);
    if (response.status === 503) {
      // Busy: come back when Retry-After says, as a client should.
      retries += 1;
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      continue;
    }
    const body = (await response.json()) as {
      data: unknown[];
      meta: { next: string | null };
    };
    times.push(performance.now() - before);
    items += body.data.length;
    next = body.meta.next;
  }
  const ms = performance.now() - started;
  const mean = (list: number[]) => list.reduce((sum, t) => sum + t, 0) / Math.max(1, list.length);
  const before = performance.now();
  await (await fetch(`${uri}${path}&page=${times.length}`)).json();
  return {
    pages: times.length,
    items,
    ms,
    firstMs: mean(times.slice(0, 10)),
    lastMs: mean(times.slice(-10)),
    offsetMs: performance.now() - before,
    retries,
  };
}

/**
 * The routes of `paths` in turn on `connections` connections for `seconds`, with a probe
 * beside them: one request at a time to a constant route on its own connection, every 100 ms,
 * whose round trip is what a forger asking this process would wait.
 */
export async function runMix(
  uri: string,
  paths: readonly string[],
  {
    connections,
    seconds,
    probePath = '/api/constant',
  }: { connections: number; seconds: number; probePath?: string },
): Promise<{
  rps: number;
  p99: number;
  status503: number;
  errors: number;
  probeP99: number;
  probeMax: number;
  probeFailures: number;
}> {
  let probing = true;
  const probes: number[] = [];
  let probeFailures = 0;
  const probe = (async () => {
    while (probing) {
      const before = performance.now();
      try {
        await (await fetch(`${uri}${probePath}`, { signal: AbortSignal.timeout(5_000) })).json();
        probes.push(performance.now() - before);
      } catch {
        // A reset or a wait past 5 s: the forger would have given up on this relay.
        probeFailures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const result = await autocannon({
    url: uri,
    connections,
    duration: seconds,
    workers: 1,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  probing = false;
  await probe;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    status503: result.statusCodeStats?.['503']?.count ?? 0,
    errors: result.errors + result.timeouts,
    probeP99: quantile(probes, 0.99),
    probeMax: quantile(probes, 1),
    probeFailures,
  };
}
