import { Command, Option } from 'commander';
import { createInterface } from 'node:readline/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { AdminRequestError, type AdminClient } from '../admin/admin-client.js';
import { adminClientFor, withNodeFlags, type AdminFlags } from '../admin/admin-target.js';
import { logLine, peerLines, poolLines, statusLines } from '../admin/answer-lines.js';
import type { CommandResult } from '../program.js';

type Print = (answer: unknown) => string[];

/**
 * The commands that speak to a running node over its admin socket: `status`, `peers`, `pool`,
 * `log`, `stop`. Each prints readable lines, or the answer as JSON with --json.
 */
export function registerAdminCommands(program: Command, result: CommandResult): void {
  const run = (
    operation: string,
    print: Print,
    args: (...values: string[]) => object = () => ({}),
  ) =>
    async function (this: Command, ...values: unknown[]) {
      const flags = this.opts<AdminFlags>();
      const answer = await adminClientFor(flags, this).call(
        operation,
        args(...(values as string[])),
      );
      output(flags, answer, print);
      result.code = 0;
    };

  withNodeFlags(program.command('status'))
    .description('a running node at a glance: height, sync, peers, pool, forging, last errors')
    .action(run('status', (answer) => statusLines(answer as Parameters<typeof statusLines>[0])));

  const peers = program
    .command('peers')
    .description('the peers of a running node: list (default), add, ban, unban');
  withNodeFlags(peers.command('list', { isDefault: true }))
    .description('the connected peers and the banned IPs')
    .action(run('peers.list', (answer) => peerLines(answer as Parameters<typeof peerLines>[0])));
  withNodeFlags(peers.command('add').argument('<address>', 'IP:PORT of the peer'))
    .description('dial a peer, verify it and keep it')
    .action(
      run(
        'peers.add',
        (answer) => [`peer added: ${JSON.stringify((answer as { peer: unknown }).peer)}`],
        (address) => ({ address }),
      ),
    );
  withNodeFlags(peers.command('ban').argument('<ip>', 'the IP to refuse'))
    .option('--for <duration>', 'how long: 90s, 30m, 1h, 7d (default: until unban)')
    .description("refuse an IP's connections, both ways, and drop the open ones")
    .action(async function (this: Command, ip: string) {
      const flags = this.opts<AdminFlags & { for?: string }>();
      const args = { ip, ...(flags.for !== undefined && { for: flags.for }) };
      const answer = await adminClientFor(flags, this).call('peers.ban', args);
      output(flags, answer, (value) => {
        const ban = value as { ip: string; bannedUntil: string };
        return [`${ban.ip} banned until ${ban.bannedUntil}`];
      });
    });
  withNodeFlags(peers.command('unban').argument('<ip>', 'the banned IP'))
    .description('lift the ban of an IP')
    .action(
      run(
        'peers.unban',
        (answer) => [`${(answer as { ip: string }).ip} unbanned`],
        (ip) => ({ ip }),
      ),
    );

  const pool = program
    .command('pool')
    .description('the transaction pool of a running node: list (default), drop, flush');
  withNodeFlags(pool.command('list', { isDefault: true }))
    .description('the pooled transactions, best first')
    .action(run('pool.list', (answer) => poolLines(answer as Parameters<typeof poolLines>[0])));
  withNodeFlags(pool.command('drop').argument('<id>', 'the transaction id'))
    .description("drop a transaction (and its sender's later ones) from the pool")
    .action(
      run(
        'pool.drop',
        (answer) => (answer as { dropped: string[] }).dropped.map((id) => `dropped ${id}`),
        (id) => ({ id }),
      ),
    );
  withNodeFlags(pool.command('flush'))
    .option('--yes', 'do not ask for confirmation')
    .description('drop every transaction from the pool')
    .action(async function (this: Command) {
      const flags = this.opts<AdminFlags & { yes?: boolean }>();
      const client = adminClientFor(flags, this);
      if (!flags.yes && !(await confirmFlush(client))) {
        result.code = 1;
        return;
      }
      const answer = await client.call('pool.flush');
      output(flags, answer, (value) => [
        `dropped ${(value as { dropped: number }).dropped} transactions`,
      ]);
    });

  withNodeFlags(program.command('log'))
    .description('recent log lines of a running node, from its memory; --follow streams new ones')
    .option('--follow', 'keep printing new lines until Ctrl-C or the node stops')
    .addOption(
      new Option('--level <level>', 'the lowest level shown')
        .choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal'])
        .default('info'),
    )
    .option('--lines <n>', 'how many recent lines', '100')
    .action(async function (this: Command) {
      const flags = this.opts<AdminFlags & { follow?: boolean; level: string; lines: string }>();
      const args = { level: flags.level, lines: flags.lines, follow: flags.follow === true };
      const client = adminClientFor(flags, this);
      const print = (record: unknown) =>
        process.stdout.write(`${flags.json ? JSON.stringify(record) : logLine(record)}\n`);
      if (flags.follow) return client.stream('log', args, print);
      for (const record of await client.call<unknown[]>('log', args)) print(record);
    });

  withNodeFlags(program.command('stop'))
    .description('stop a running node cleanly and wait until it has')
    .action(async function (this: Command) {
      const flags = this.opts<AdminFlags>();
      const answer = await adminClientFor(flags, this).call<{ pid: number }>('stop');
      if (!flags.json) process.stdout.write(`node ${answer.pid} is stopping\n`);
      await processEnded(answer.pid);
      output(flags, { ...answer, stopped: true }, () => [`node ${answer.pid} stopped`]);
    });
}

function output(flags: AdminFlags, answer: unknown, print: Print): void {
  const lines = flags.json ? [JSON.stringify(answer, null, 2)] : print(answer);
  for (const line of lines) process.stdout.write(`${line}\n`);
}

/** Asks on the terminal; without one, refuses: deleting needs a person or --yes. */
async function confirmFlush(client: AdminClient): Promise<boolean> {
  const { size } = (await client.call<{ pool: { size: number } }>('status')).pool;
  if (!process.stdin.isTTY) {
    process.stderr.write(
      `error: pool flush drops all ${size} pooled transactions: run it on a terminal to confirm, or pass --yes\n`,
    );
    return false;
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await prompt.question(`Drop all ${size} transactions from the pool? [y/N] `);
  prompt.close();
  if (/^y(es)?$/i.test(answer.trim())) return true;
  process.stderr.write('nothing dropped\n');
  return false;
}

/** How long `kernel stop` waits for the node to finish its clean stop before it says so. */
const STOP_WAIT_MS = 120_000;

/** Resolves once the process is gone (the node's clean stop may take a few seconds). */
async function processEnded(pid: number): Promise<void> {
  const deadline = Date.now() + STOP_WAIT_MS;
  while (isRunning(pid)) {
    if (Date.now() > deadline) {
      throw new AdminRequestError(
        'ERR_STOP_SLOW',
        `node ${pid} is still stopping after ${STOP_WAIT_MS / 1000} s: its log says which plugin it waits for`,
      );
    }
    await sleep(100);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user (the socket let us in through its group or as root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
