import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import apiPlugin from '@lni/api';
import databasePlugin from '@lni/database';
import statePlugin from '@lni/state';
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../support/free-port.js';
import { adminQuery, postgresSkipReason, type ServerConnection } from '../support/postgres.js';

interface CrashedNode {
  readonly connection: ServerConnection;
  readonly paths: { readonly config: string; readonly data: string; readonly log: string };
}

/** Runs the crashing node to its end: where its data is, and how it ended. */
async function runCrashingNode(target: string): Promise<{ node: CrashedNode; signal: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '../support/crash-after-block-commit.ts'),
      target,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  const signal = await new Promise<string>((resolve) =>
    child.once('exit', (_code, signal) => resolve(String(signal))),
  );
  const node = JSON.parse(lines[0] ?? 'null') as CrashedNode | null;
  if (node === null) throw new Error(`the child printed nothing (${signal})`);
  expect(lines).not.toContain('survived');
  return { node, signal };
}

describe.skipIf(postgresSkipReason)("webhook deliveries written in the block's transaction", () => {
  const bodies: string[] = [];
  let server: Server | undefined;
  let restarted: TestKernel | undefined;
  let crashed: CrashedNode | undefined;
  afterAll(async () => {
    await restarted?.stop();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    if (crashed) {
      await adminQuery(`DROP DATABASE IF EXISTS ${crashed.connection.database} WITH (FORCE)`);
      await rm(join(crashed.paths.config, '..'), { recursive: true, force: true });
    }
  });

  it('are sent once after kill -9 between the commit and the sending, then a restart', async () => {
    const port = await freePort();
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));

    const { node, signal } = await runCrashingNode(`http://127.0.0.1:${port}/hook`);
    crashed = node;
    expect(signal).toBe('SIGKILL');
    expect(bodies).toEqual([]);

    restarted = await startTestKernel({
      plugins: [
        { plugin: databasePlugin as Plugin<object>, options: { connection: node.connection } },
        { plugin: statePlugin as Plugin<object>, options: { verificationWorkers: 0 } },
        {
          plugin: apiPlugin as Plugin<object>,
          options: {
            host: '127.0.0.1',
            port: 0,
            rateLimit: { enabled: false },
            webhooks: { pollMs: 100, firstRetryMs: 200, maxRetryMs: 1_000, timeoutMs: 2_000 },
          },
        },
      ],
      paths: node.paths,
    });
    // The block the dead node committed is there, and so is its delivery.
    expect(restarted.cradle.blockProcessor.lastBlock?.height).toBe(2);
    await eventually(
      async () => (bodies.length > 0 ? true : undefined),
      10_000,
      'the delivery of block 2',
    );
    const body = JSON.parse(bodies[0]!) as { event: string; data: { height: number } };
    expect(body.event).toBe('block.applied');
    expect(body.data.height).toBe(2);
    // Once: nothing more arrives over several polls.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(bodies).toHaveLength(1);
  }, 120_000);
});
