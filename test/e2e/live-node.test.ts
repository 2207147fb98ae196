import Nes from '@hapi/nes';
import type { KernelProcess } from '@lni/cli/testing';
import { addressFromPassphrase, loadNetworkConfig } from '@lni/crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import {
  ApiClient,
  blocktimeMs,
  startNode,
  stopNode,
  type NodeDirs,
} from '../support/node-harness.js';

const CHROMIUM = '/usr/bin/chromium';
/** Screenshots a person can look at after the run (gitignored). */
const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts');

// A forging core node as an operator starts it; clients reach it over its API port only.
describe('a forging node pushes live data to clients and its status page', () => {
  let root: string;
  let dirs: NodeDirs;
  let node: KernelProcess | undefined;
  let api: ApiClient;
  let origin: string;
  let slotMs: number;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-live-node-'));
    dirs = { config: join(root, 'config'), data: join(root, 'data') };
    const [apiPort, p2pPort] = [await freePort(), await freePort()];
    origin = `127.0.0.1:${apiPort}`;
    api = new ApiClient(`http://${origin}/api`);
    node = startNode('core', dirs, {
      CORE_API_PORT: String(apiPort),
      CORE_P2P_PORT: String(p2pPort),
    });
    await eventually(() => api.get('/node/status'), 120_000, 'the API');
    // A block of the last slots is an info line; the genesis block (older) is not.
    await node.waitFor('Block applied', 60_000);
    slotMs = blocktimeMs(dirs.config);
  }, 240_000);

  afterAll(async () => {
    await stopNode(node);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('a plain nes client receives the next blocks and a transfer to the address it watches', async () => {
    const client = new Nes.Client(`ws://${origin}`);
    await client.connect({ reconnect: false });
    try {
      const blocks: { height: number; id: string }[] = [];
      await client.subscribe('/events/block.applied', (block) => {
        blocks.push(block as { height: number; id: string });
      });
      const recipient = 'live node wallet that watches';
      const address = addressFromPassphrase(
        recipient,
        loadNetworkConfig(join(dirs.config, 'crypto')).network.pubKeyHash,
      );
      const transfers: { id: string; amount: string; confirmations: number }[] = [];
      await client.subscribe(`/wallets/${address}/transactions`, (transaction) => {
        transfers.push(transaction as { id: string; amount: string; confirmations: number });
      });
      const sent = await api.postTransfer(dirs.config, recipient, 4321);
      const [received] = await eventually(
        async () => (transfers.length > 0 ? transfers : undefined),
        3 * slotMs + 5_000,
        'the transfer pushed',
      );
      expect(received).toMatchObject({ id: sent.id, amount: '4321', confirmations: 1 });
      expect(transfers).toHaveLength(1);

      // Blocks arrive one by one, each the chain's block at its height.
      const seen = await eventually(
        async () => (blocks.length >= 2 ? blocks : undefined),
        3 * slotMs + 5_000,
        'two blocks pushed',
      );
      expect(seen[1]!.height).toBe(seen[0]!.height + 1);
      const stored = (await api.get(`/blocks/${seen[1]!.height}`)).data;
      expect(stored.id).toBe(seen[1]!.id);
    } finally {
      await client.disconnect();
    }
  }, 120_000);

  describe.skipIf(!existsSync(CHROMIUM))(
    existsSync(CHROMIUM)
      ? "the status page in Debian's chromium"
      : `the status page: skipped, ${CHROMIUM} is not installed (apt-get install -y chromium)`,
    () => {
      let browser: Browser | undefined;
      afterAll(async () => {
        await browser?.close();
      });

      it('shows a new block without a reload', async () => {
        browser = await chromium.launch({
          executablePath: CHROMIUM,
          args: ['--headless', '--no-sandbox', '--disable-background-networking'],
        });
        const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
        let loads = 0;
        page.on('load', () => loads++);
        const failed: string[] = [];
        page.on('response', (response) => {
          if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
        });
        await page.goto(`http://${origin}/`);
        await page.locator('#live[data-state="live"]').waitFor({ timeout: 15_000 });
        await page.locator('#blocks tr').first().waitFor();
        const newest = async () =>
          Number(await page.locator('#blocks tr').first().getAttribute('data-height'));
        const first = await newest();
        expect(Number(await page.locator('#height').textContent())).toBeGreaterThanOrEqual(first);

        // The next block is pushed to the page and drawn at the top of the table.
        // Evaluated in the page (a string: this file is not type-checked against the DOM).
        await page.waitForFunction(
          `Number(document.querySelector('#blocks tr')?.getAttribute('data-height')) > ${first}`,
          undefined,
          { timeout: 3 * slotMs + 5_000 },
        );
        const arrived = await newest();
        expect(loads).toBe(1);
        const chain = await api.get(`/blocks/${arrived}`);
        const row = page.locator(`#blocks tr[data-height="${arrived}"] td`);
        expect(await row.nth(1).textContent()).toBe(
          `${chain.data.id.slice(0, 8)}…${chain.data.id.slice(-6)}`,
        );
        expect(await row.nth(3).textContent()).toBe(String(chain.data.transactions));
        // The round shows who forged; the charts are drawn.
        await page.locator('#round-delegates li.forged').first().waitFor();
        expect(await page.locator('.uplot canvas').count()).toBe(2);
        // Every file the page asks for is there, its icon included.
        expect(failed).toEqual([]);
        const icon = await page.evaluate(
          `fetch(document.querySelector('link[rel="icon"]').href).then((r) => r.status)`,
        );
        expect(icon).toBe(200);

        await mkdir(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: join(ARTIFACTS, 'status-page.png'), fullPage: true });
      }, 120_000);
    },
  );
});
