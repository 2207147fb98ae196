import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { apiConfigSchema } from '../config.js';
import { pageOf } from '../pagination/envelope.js';
import { apiPlugin } from '../plugin.js';
import {
  indexQuerySchema,
  toResourceQuery,
  type IndexQueryDefinition,
} from '../query/index-query.js';

// A plugin contributing a route through the registry, as the resource plugins do.
const colours: IndexQueryDefinition = {
  catalog: { name: { type: 'string' }, shade: { type: 'integer' } },
  defaultOrder: [{ field: 'shade', direction: 'asc' }],
  refused: { addresses: 'was removed in 3.0: use "address" with comma-separated values' },
};
const palette = Array.from({ length: 250 }, (_, shade) => ({ name: `c${shade % 7}`, shade }));
const paletteRoutes: Plugin<object> = {
  name: 'palette',
  dependsOn: { required: ['api'] },
  register: ({ container }) =>
    container.cradle.apiRoutes.add(
      {
        method: 'GET',
        path: '/api/slow',
        handler: () => new Promise((resolve) => setTimeout(() => resolve({ data: 'late' }), 300)),
      },
      {
        method: 'GET',
        path: '/api/search-timeout',
        handler: () => {
          throw Object.assign(new Error('The search took longer than its budget of 10 ms'), {
            code: 'ERR_DB_SEARCH_TIMEOUT',
          });
        },
      },
      {
        method: 'GET',
        path: '/api/colours',
        options: {
          description: 'Colours, filtered by any field',
          validate: { query: indexQuerySchema(colours) },
        },
        handler: (request) => {
          const query = toResourceQuery(request.query, colours);
          const names = query.conditions.find((condition) => condition.field === 'name');
          const matching = palette.filter(
            (colour) => !names || (names.kind === 'in' && names.values.includes(colour.name)),
          );
          const page = matching.slice(query.offset, query.offset + query.limit);
          return pageOf(page, matching.length, query, '/api/colours', request.url.searchParams);
        },
      },
    ),
};

// Response bodies are inspected field by field; their shape is what the assertions check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readJson = (response: Response): Promise<any> => response.json();

/** Keeps the (shared) event loop busy for `ms`, as a burst of heavy requests would. */
function holdEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

let kernel: TestKernel | undefined;
afterEach(async () => {
  await kernel?.stop();
  kernel = undefined;
});

async function start(options: object = {}) {
  kernel = await startTestKernel({
    plugins: [
      { plugin: paletteRoutes },
      { plugin: apiPlugin as Plugin<object>, options: { host: '127.0.0.1', port: 0, ...options } },
    ],
  });
  return kernel.cradle.apiServer.server.info.uri;
}

/** GET `url` from `localAddress` with an X-Forwarded-For header: the status and message. */
function statusFrom(url: string, localAddress: string, forwardedFor: string) {
  return new Promise<{ status: number; message?: string }>((resolve, reject) => {
    get(url, { localAddress, headers: { 'x-forwarded-for': forwardedFor } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { message?: string };
        resolve({ status: res.statusCode ?? 0, message: body.message });
      });
    }).on('error', reject);
  });
}

describe('the API server', () => {
  it('serves contributed routes with the page envelope and links that keep the filters', async () => {
    const uri = await start();
    const response = await fetch(`${uri}/api/colours?name=c1,c2&limit=10&page=2`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-block-height')).toBe('0');
    const body = await readJson(response);
    expect(body.meta).toEqual({
      count: 10,
      pageCount: 8,
      totalCount: 72,
      next: '/api/colours?name=c1%2Cc2&page=3&limit=10',
      previous: '/api/colours?name=c1%2Cc2&page=1&limit=10',
      self: '/api/colours?name=c1%2Cc2&page=2&limit=10',
      first: '/api/colours?name=c1%2Cc2&page=1&limit=10',
      last: '/api/colours?name=c1%2Cc2&page=8&limit=10',
    });
    expect(body.data.every((colour: { name: string }) => ['c1', 'c2'].includes(colour.name))).toBe(
      true,
    );
  });

  it.each([
    ['/api/colours?shade=dark', 422, '"shade" must be an integer, not \'dark\''],
    ['/api/colours?hue=3', 422, '"hue" is not a field of this resource'],
    [
      '/api/colours?addresses=a',
      422,
      '"addresses" was removed in 3.0: use "address" with comma-separated values',
    ],
    ['/api/colours?name=a&name=b', 422, '"name" must be a string'],
    ['/api/nothing-here', 404, 'Not Found'],
  ])('answers %s with %i and a message naming the problem', async (path, status, message) => {
    const uri = await start();
    const response = await fetch(`${uri}${path}`);
    expect(response.status).toBe(status);
    const body = await readJson(response);
    expect(body.statusCode).toBe(status);
    expect(typeof body.error).toBe('string');
    expect(body.message).toBe(message);
    expect(response.headers.get('x-block-height')).toBe('0');
  });

  it('answers a removed POST search endpoint with 404 saying to use the index route', async () => {
    const uri = await start();
    const response = await fetch(`${uri}/api/colours/search`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect((await readJson(response)).message).toBe(
      'POST /api/colours/search was removed in 3.0: use GET /api/colours with query parameters ' +
        '(any field as a filter, orderBy, page, limit)',
    );
    // Only index routes had a search: anything else stays a plain 404.
    const elsewhere = await fetch(`${uri}/api/nothing/search`, { method: 'POST', body: '{}' });
    expect(elsewhere.status).toBe(404);
    expect((await readJson(elsewhere)).message).toBe('Not Found');
  });

  it('greets on /api and / as ARK 3.0 does, for liveness probes', async () => {
    const uri = await start();
    for (const path of ['/api', '/api/', '/']) {
      const response = await fetch(`${uri}${path}`);
      expect(response.status).toBe(200);
      expect(await readJson(response)).toEqual({ data: 'Hello World!' });
    }
  });

  it('limits requests per IP with 429 and Retry-After, except whitelisted IPs', async () => {
    const uri = await start({
      rateLimit: { enabled: true, points: 3, windowSeconds: 60, whitelist: [] },
    });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i += 1) {
      const response = await fetch(`${uri}/api/colours?limit=1`);
      statuses.push(response.status);
      if (response.status === 429) {
        retryAfter = response.headers.get('retry-after');
        expect((await readJson(response)).message).toBe(
          'rate limit of 3 requests per 60 s exceeded for 127.0.0.1',
        );
      } else await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('limits each client behind a trusted proxy on its own, and ignores the header of any other peer', async () => {
    // 127.0.0.1 is the proxy; 127.0.0.2 is a peer that is not one (both loopback on Linux).
    const uri = await start({
      trustedProxies: ['127.0.0.1'],
      rateLimit: { enabled: true, points: 2, windowSeconds: 60, whitelist: [] },
    });
    const via = (localAddress: string, forwardedFor: string) =>
      statusFrom(`${uri}/api/colours?limit=1`, localAddress, forwardedFor);
    // Two clients behind the proxy: each has its own 2 requests.
    const behindProxy = [];
    for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.1', '203.0.113.2'])
      behindProxy.push(await via('127.0.0.1', `${client}, 127.0.0.1`));
    expect(behindProxy.map(({ status }) => status)).toEqual([200, 200, 200, 200]);
    const third = await via('127.0.0.1', '203.0.113.1');
    expect(third.status).toBe(429);
    expect(third.message).toBe('rate limit of 2 requests per 60 s exceeded for 203.0.113.1');
    // An untrusted peer naming a new client each time still draws on its own budget.
    const spoofing = [];
    for (const client of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      spoofing.push(await via('127.0.0.2', client));
    expect(spoofing.map(({ status }) => status)).toEqual([200, 200, 429]);
    expect(spoofing[2]?.message).toBe('rate limit of 2 requests per 60 s exceeded for 127.0.0.2');
  });

  it('refuses a trusted proxy that is no IP or CIDR range, and reads a comma-separated list', async () => {
    await expect(start({ trustedProxies: ['haproxy'] })).rejects.toThrow(/trustedProxies/);
    // CORE_API_TRUSTED_PROXIES holds the list as text.
    const { value, error } = apiConfigSchema.validate({ trustedProxies: '10.0.0.0/8, ::1' });
    expect(error).toBeUndefined();
    expect(value.trustedProxies).toEqual(['10.0.0.0/8', '::1']);
    expect(apiConfigSchema.validate({}).value.trustedProxies).toEqual([]);
  });

  it('answers 503 with Retry-After past the time budget, and to a search the database cancelled', async () => {
    const uri = await start({ timeBudgetMs: 50 });
    const slow = await fetch(`${uri}/api/slow`);
    expect(slow.status).toBe(503);
    expect(slow.headers.get('retry-after')).toBe('1');
    const cancelled = await fetch(`${uri}/api/search-timeout`);
    expect(cancelled.status).toBe(503);
    expect(cancelled.headers.get('retry-after')).toBe('1');
    expect((await readJson(cancelled)).message).toMatch(/budget of 10 ms/);
  });

  it('sheds requests with 503 and Retry-After while its event loop is behind, but not /health or /metrics', async () => {
    const uri = await start({ maxEventLoopDelayMs: 100 });
    expect((await fetch(`${uri}/api/colours?limit=1`)).status).toBe(200);
    holdEventLoop(300);
    const [shed, metrics, health] = await Promise.all([
      fetch(`${uri}/api/colours?limit=1`),
      fetch(`${uri}/metrics`),
      fetch(`${uri}/health`),
    ]);
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    expect((await readJson(shed)).message).toMatch(/event loop is \d+ ms behind/);
    // A load balancer's check keeps the node in (its shed requests are retried elsewhere).
    expect(metrics.status).toBe(200);
    expect(health.status).toBe(200);
    // Caught up: requests are taken again.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`${uri}/api/colours?limit=1`)).status).toBe(200);
    // Counted for the operator apart from the routed requests.
    expect(await (await fetch(`${uri}/metrics`)).text()).toMatch(
      /^lni_api_shed_requests_total 1$/m,
    );
  });

  it('sheds nothing by default, however far behind its event loop is', async () => {
    const uri = await start();
    holdEventLoop(300);
    expect((await fetch(`${uri}/api/colours?limit=1`)).status).toBe(200);
  });

  it('does not limit a whitelisted address (loopback by default)', async () => {
    const uri = await start({ rateLimit: { enabled: true, points: 1, windowSeconds: 60 } });
    for (let i = 0; i < 3; i += 1)
      expect((await fetch(`${uri}/api/colours?limit=1`)).status).toBe(200);
  });

  it('compresses with gzip when asked and sends CORS headers', async () => {
    const uri = await start();
    const response = await fetch(`${uri}/api/colours`, {
      headers: { 'accept-encoding': 'gzip', origin: 'https://explorer.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://explorer.example');
    // fetch decompresses transparently; ask the raw socket instead through node:http.
    const { request } = await import('node:http');
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      request(`${uri}/api/colours`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    });
    expect(raw.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(raw.body).toString()).meta.totalCount).toBe(250);
    await response.arrayBuffer();
  });

  it('documents every route and its parameters in an OpenAPI document from the joi schemas', async () => {
    const uri = await start();
    const document = await readJson(await fetch(`${uri}/api/openapi.json`));
    expect(document.openapi).toBe('3.0.3');
    const index = document.paths['/api/colours'].get;
    expect(index.summary).toBe('Colours, filtered by any field');
    const names = index.parameters.map((parameter: { name: string }) => parameter.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'page',
        'limit',
        'offset',
        'orderBy',
        'name',
        'shade',
        'shade.from',
        'shade.to',
      ]),
    );
    expect(names).not.toContain('addresses');
    expect(document.paths['/api/openapi.json']).toBeDefined();
  });
});
