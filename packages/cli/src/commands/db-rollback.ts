import { Option, type Command } from 'commander';
import { closeLogFiles, ConfigError } from '@lni/kernel';
import { dropUnsentDeliveriesAbove } from '@lni/api/rollback';
import { rollBackChain, tipHeight } from '@lni/state';
import { confirm } from '../data-tools/confirmation.js';
import { locateNode, type DataToolFlags } from '../data-tools/node-database.js';
import { addNodeOptions, positiveInteger } from '../data-tools/node-flags.js';
import { runningNodeReason } from '../data-tools/node-running.js';
import { progressBar } from '../data-tools/progress-bar.js';
import type { CommandResult } from '../program.js';

interface RollbackFlags extends DataToolFlags {
  readonly height?: number;
  readonly blocks?: number;
  readonly yes?: boolean;
}

export function registerDbRollback(program: Command, result: CommandResult): void {
  addNodeOptions(
    program
      .command('db:rollback')
      .description(
        'delete the blocks above a height (node stopped); their transactions go back to the pool',
      ),
  )
    .addOption(
      new Option('--height <h>', 'the height to keep as the new tip')
        .argParser(positiveInteger)
        .conflicts('blocks'),
    )
    .addOption(new Option('--blocks <n>', 'how many blocks to remove').argParser(positiveInteger))
    .option('--yes', 'do not ask for confirmation')
    .action(async (flags: RollbackFlags) => {
      result.code = await rollBack(flags);
    });
}

async function rollBack(flags: RollbackFlags): Promise<number> {
  if (flags.height === undefined && flags.blocks === undefined) {
    throw new ConfigError('db:rollback needs --height H or --blocks N');
  }
  const node = await locateNode(flags);
  const { database } = node;
  try {
    await database.open();
    const running = await runningNodeReason(node.paths.data, database);
    if (running !== undefined) {
      throw new ConfigError(`The node is running (${running}): stop it before db:rollback`);
    }
    const tip = await tipHeight(database.manager);
    const height = flags.height ?? tip - (flags.blocks ?? 0);
    if (height < 1 || height > tip) {
      const asked = flags.height !== undefined ? `--height ${height}` : `--blocks ${flags.blocks}`;
      throw new ConfigError(
        `${asked}: the chain's tip is ${tip}; the new tip must be between 1 and ${tip} (nothing changed)`,
      );
    }
    if (height === tip) {
      process.stdout.write(`The chain is already at height ${tip}: nothing to do\n`);
      return 0;
    }
    const question = `Delete blocks ${height + 1}..${tip} (${tip - height}) of ${database.description}? Their transactions go back to the pool.`;
    if (flags.yes !== true && !(await confirm(question))) {
      process.stderr.write('Not confirmed: nothing changed (pass --yes to run without asking)\n');
      return 1;
    }
    const progress = progressBar('Removing blocks', tip - height, 'blocks');
    const outcome = await database
      .transaction(async (manager) => {
        const rolledBack = await rollBackChain(manager, height, node.milestones, {
          onProgress: (done) => progress.update(done),
        });
        // The API's webhook outbox: what it had not posted yet about the dropped blocks.
        return { ...rolledBack, deliveries: await dropUnsentDeliveriesAbove(manager, height) };
      })
      .finally(() => progress.stop());
    process.stdout.write(
      `Rolled back from ${outcome.fromHeight} to ${outcome.toHeight}: ${outcome.blocks} block(s) and ${outcome.transactions} transaction(s) removed, ${outcome.returnedToPool} returned to the pool, ${outcome.deliveries} unsent webhook deliveries dropped; the wallet state is rebuilt from the chain at the next start\n`,
    );
    return 0;
  } finally {
    await database.close();
    await closeLogFiles(node.logger);
  }
}
