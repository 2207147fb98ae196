import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import databasePlugin from '@lni/database';
import statePlugin, { type WalletRepository } from '@lni/state';
import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery, postgresSkipReason, type ServerConnection } from '../support/postgres.js';
import { kernel as runKernel } from '../support/shell.js';

interface CrashedNode {
  readonly connection: ServerConnection;
  readonly paths: { readonly config: string; readonly data: string; readonly log: string };
}

/** A ledger node that dies by SIGKILL right after block 2's transaction committed. */
async function runCrashingNode(): Promise<CrashedNode> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '../support/crash-after-block-commit.ts'),
      // The webhook's target: never called, the node dies first.
      'http://127.0.0.1:9/never',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  const signal = await new Promise((resolve) => child.once('exit', (_c, s) => resolve(s)));
  expect(signal).toBe('SIGKILL');
  return JSON.parse(lines[0] ?? 'null') as CrashedNode;
}

describe.skipIf(postgresSkipReason)('the wallets table after kill -9 and from the CLI', () => {
  let crashed: CrashedNode | undefined;
  let node: TestKernel | undefined;
  afterAll(async () => {
    await node?.stop();
    if (crashed) {
      await adminQuery(`DROP DATABASE IF EXISTS ${crashed.connection.database} WITH (FORCE)`);
      await rm(join(crashed.paths.config, '..'), { recursive: true, force: true });
    }
  });
  const start = (load: boolean) =>
    startTestKernel({
      plugins: [
        { plugin: databasePlugin as Plugin<object>, options: { connection: crashed!.connection } },
        {
          plugin: statePlugin as Plugin<object>,
          options: { verificationWorkers: 0, walletTable: { load } },
        },
      ],
      paths: crashed!.paths,
    });
  const wallets = (kernel: TestKernel) =>
    [...kernel.app.container.resolve<WalletRepository>('walletRepository').all()].sort((a, b) =>
      a.address < b.address ? -1 : 1,
    );

  it('holds the chain of a node killed right after a block commit: it loads, and equals a rebuild', async () => {
    crashed = await runCrashingNode();
    node = await start(true);
    expect(node.cradle.blockProcessor.lastBlock?.height).toBe(2);
    expect(node.logs.filter((r) => r.msg === 'State loaded')).toMatchObject([{ height: 2 }]);
    const loaded = wallets(node);
    await node.stop();
    node = await start(false);
    expect(node.logs.some((r) => r.msg === 'State rebuilt')).toBe(true);
    expect(wallets(node)).toEqual(loaded);
    await node.stop();
    node = undefined;
  }, 120_000);

  it('is verified by `kernel state:verify`: exit 0 when clean, 1 naming the wallet after a change by SQL', async () => {
    const { config, data } = crashed!.paths;
    const plugins = [
      { package: '@lni/database', options: { connection: crashed!.connection } },
      { package: '@lni/state', options: { verificationWorkers: 0 } },
    ];
    await writeFile(join(config, 'app.json'), JSON.stringify({ core: { plugins } }));
    const verify = () => runKernel(['state:verify', '--config', config, '--data', data]);
    const clean = await verify();
    expect(clean.stdout).toMatch(
      /^height 2: \d+ wallets in the table, \d+ replayed, 0 difference/m,
    );
    expect(clean.code).toBe(0);

    const sql = new pg.Client({ ...crashed!.connection, user: crashed!.connection.username });
    await sql.connect();
    const { rows } = await sql.query(
      `UPDATE wallets SET balance = balance + 1
       WHERE address = (SELECT min(address) FROM wallets WHERE balance > 0) RETURNING address`,
    );
    await sql.end();
    const changed = await verify();
    expect(changed.stdout).toContain(`${rows[0].address} balance: table`);
    expect(changed.stdout).toMatch(/1 difference\(s\)/);
    expect(changed.code).toBe(1);
  }, 120_000);
});
