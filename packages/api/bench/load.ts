import autocannon from 'autocannon';

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
    const result = await autocannon({
      url: `${uri}${path}`,
      connections,
      duration: seconds,
      workers: 1,
    });
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
