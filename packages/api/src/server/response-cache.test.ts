import { asValue } from 'awilix';
import Joi from 'joi';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerReader } from '@lni/state/contracts';
import { apiPlugin } from '../plugin.js';
import { JSON_TYPE } from '../resources/json-bytes.js';
import { ResponseCache } from './response-cache.js';

describe('ResponseCache', () => {
  it('answers at the tip it was filled at and forgets everything when the tip moves', () => {
    const cache = new ResponseCache({ maxBytes: 1024 });
    expect(cache.get('tip 1', '/a')).toBeUndefined();
    cache.set('tip 1', 'tip 1', '/a', Buffer.from('{"a":1}'));
    expect(cache.get('tip 1', '/a')?.toString()).toBe('{"a":1}');
    expect(cache.get('tip 2', '/a')).toBeUndefined();
    // Back at the first tip (a block reverted): nothing from before survived.
    expect(cache.get('tip 1', '/a')).toBeUndefined();
  });

  it('does not keep a response whose computation saw the tip move', () => {
    const cache = new ResponseCache({ maxBytes: 1024 });
    cache.get('tip 1', '/a');
    cache.set('tip 1', 'tip 2', '/a', Buffer.from('mixed'));
    expect(cache.get('tip 1', '/a')).toBeUndefined();
    // Filled for a tip the cache has not moved to yet: not kept either.
    cache.set('tip 2', 'tip 2', '/a', Buffer.from('early'));
    expect(cache.get('tip 1', '/a')).toBeUndefined();
  });

  it('stays within its size, dropping the least recently used', () => {
    const cache = new ResponseCache({ maxBytes: 100 });
    cache.get('tip', '/');
    for (let n = 0; n < 10; n += 1) cache.set('tip', 'tip', `/${n}`, Buffer.alloc(30));
    expect(cache.size).toBe(3);
    expect(cache.get('tip', '/9')).toEqual(Buffer.alloc(30));
    expect(cache.get('tip', '/0')).toBeUndefined();
  });
});

// A ledger whose tip the test moves, and routes that count how often they really run.
let tip: string | undefined = 'block 1';
let runs = 0;
const ledger = { tip: () => tip } as Partial<LedgerReader>;
const countingRoutes: Plugin<object> = {
  name: 'counting-routes',
  dependsOn: { required: ['api'] },
  register: ({ container }) => {
    container.register({ ledger: asValue(ledger as LedgerReader) });
    const counted = () => ({ data: { runs: ++runs, tip } });
    container.cradle.apiRoutes.add(
      {
        method: 'GET',
        path: '/api/chain',
        options: {
          app: { cachedPerBlock: true },
          validate: { query: Joi.object({ n: Joi.number().integer() }) },
        },
        handler: counted,
      },
      { method: 'GET', path: '/api/pool', handler: counted },
      // A route that answers its own encoded JSON, as the wallet routes do.
      {
        method: 'GET',
        path: '/api/chain/encoded',
        options: { app: { cachedPerBlock: true } },
        handler: (_request, h) =>
          h.response(Buffer.from(JSON.stringify(counted()))).type(JSON_TYPE),
      },
      // Bytes that are not JSON are not the cache's to keep.
      {
        method: 'GET',
        path: '/api/chain/plain',
        options: { app: { cachedPerBlock: true } },
        handler: (_request, h) => h.response(Buffer.from(`runs ${++runs}`)).type('text/plain'),
      },
    );
  },
};

let kernel: TestKernel | undefined;
afterEach(async () => {
  await kernel?.stop();
  kernel = undefined;
});

async function start(options: object = {}) {
  runs = 0;
  tip = 'block 1';
  kernel = await startTestKernel({
    plugins: [
      { plugin: countingRoutes },
      { plugin: apiPlugin as Plugin<object>, options: { host: '127.0.0.1', port: 0, ...options } },
    ],
  });
  const uri = kernel.cradle.apiServer.server.info.uri;
  return async (path: string) => {
    const response = await fetch(`${uri}${path}`);
    return { status: response.status, body: (await response.json()) as unknown, response };
  };
}

describe('responses cached per block', () => {
  it('repeats a chain route without running it until the tip moves', async () => {
    const get = await start();
    const first = await get('/api/chain?n=1');
    const again = await get('/api/chain?n=1');
    expect(again.body).toEqual(first.body);
    expect(again.response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(again.response.headers.get('x-block-height')).toBe('0');
    expect(runs).toBe(1);
    // Another query string is another answer.
    await get('/api/chain?n=2');
    expect(runs).toBe(2);

    tip = 'block 2';
    expect((await get('/api/chain?n=1')).body).toEqual({ data: { runs: 3, tip: 'block 2' } });
    // A revert to the earlier tip does not bring its old answers back.
    tip = 'block 1';
    expect((await get('/api/chain?n=1')).body).toEqual({ data: { runs: 4, tip: 'block 1' } });
  });

  it("keeps a route's own encoded JSON as it keeps objects, and no other bytes", async () => {
    const get = await start();
    const first = await get('/api/chain/encoded');
    const again = await get('/api/chain/encoded');
    expect(again.body).toEqual(first.body);
    expect(again.response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(runs).toBe(1);
    const uri = kernel!.cradle.apiServer.server.info.uri;
    expect(await (await fetch(`${uri}/api/chain/plain`)).text()).toBe('runs 2');
    expect(await (await fetch(`${uri}/api/chain/plain`)).text()).toBe('runs 3');
  });

  it('runs routes that read more than the chain, and bad requests, every time', async () => {
    const get = await start();
    await get('/api/pool');
    await get('/api/pool');
    expect(runs).toBe(2);
    expect((await get('/api/chain?n=x')).status).toBe(422);
    expect((await get('/api/chain?n=x')).status).toBe(422);
    expect(runs).toBe(2);
  });

  it('caches nothing before the genesis block or when turned off', async () => {
    let get = await start();
    tip = undefined;
    await get('/api/chain');
    await get('/api/chain');
    expect(runs).toBe(2);
    await kernel?.stop();

    get = await start({ cache: { enabled: false } });
    await get('/api/chain');
    await get('/api/chain');
    expect(runs).toBe(2);
  });
});
