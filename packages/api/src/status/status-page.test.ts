import Hapi from '@hapi/hapi';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { statusPageHtml, statusPageRoutes } from './status-page.js';

interface ChartBlock {
  readonly height: number;
  readonly transactions: number;
  readonly timestamp: { readonly epoch: number };
}

interface StatusCharts {
  series(blocks: readonly ChartBlock[]): {
    blockTime: [number[], number[]];
    transactions: [number[], number[]];
  };
  countRange(plot: unknown, min: number, max: number): [number, number];
}

/** The page's chart script, run as a browser runs it. */
function statusCharts(): StatusCharts {
  const file = fileURLToPath(new URL('../../status/charts.js', import.meta.url));
  const window: { lniStatusCharts?: StatusCharts } = {};
  runInNewContext(readFileSync(file, 'utf8'), { window });
  if (!window.lniStatusCharts) throw new Error('charts.js did not set window.lniStatusCharts');
  return window.lniStatusCharts;
}

describe('the status page', () => {
  it('serves an icon where browsers look for one, and links it', async () => {
    const server = Hapi.server();
    server.route(statusPageRoutes());
    const icon = await server.inject('/favicon.ico');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(icon.payload)).toMatch(/^<svg /);
    const link = /<link rel="icon" href="([^"]+)"/.exec(statusPageHtml().toString())?.[1];
    expect(link).toBeDefined();
    expect((await server.inject(link as string)).statusCode).toBe(200);
    expect(statusPageHtml().toString()).toContain('/status/assets/charts.js');
  });

  it('scales the transactions chart to the blocks after the genesis block', () => {
    const charts = statusCharts();
    const blocks: ChartBlock[] = [
      { height: 1, transactions: 153, timestamp: { epoch: 0 } },
      { height: 2, transactions: 0, timestamp: { epoch: 96_000 } },
      { height: 3, transactions: 3, timestamp: { epoch: 96_008 } },
      { height: 4, transactions: 1, timestamp: { epoch: 96_024 } },
    ];
    const { blockTime, transactions } = charts.series([...blocks].reverse());
    expect(transactions).toEqual([
      [2, 3, 4],
      [0, 3, 1],
    ]);
    expect(blockTime).toEqual([
      [3, 4],
      [8, 16],
    ]);
    expect(charts.countRange(undefined, 0, Math.max(...transactions[1]))).toEqual([0, 3]);
    // Blocks without transactions still get an axis from 0, never one below it.
    expect(charts.countRange(undefined, 0, 0)).toEqual([0, 1]);
  });
});
