import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { closeLogFiles, ConfigError } from '@lni/kernel';
import { tipHeight } from '@lni/state';
import { lniVersion } from '../data-tools/lni-version.js';
import { locateNode, type DataToolFlags } from '../data-tools/node-database.js';
import { addNodeOptions, positiveInteger } from '../data-tools/node-flags.js';
import { progressBar } from '../data-tools/progress-bar.js';
import { createSnapshot } from '../snapshots/snapshot-create.js';
import type { CommandResult } from '../program.js';

interface CreateFlags extends DataToolFlags {
  readonly height?: number;
  readonly to?: string;
}

export function registerSnapshotCreate(program: Command, result: CommandResult): void {
  addNodeOptions(
    program
      .command('snapshot:create')
      .description(
        'write the chain up to a height (blocks, transactions, rounds, the wallet table when it is at that height) to a compressed snapshot file',
      ),
  )
    .addOption(
      new Option('--height <h>', 'last block of the snapshot (default: the tip)').argParser(
        positiveInteger,
      ),
    )
    .option('--to <file>', 'the snapshot file (default: ./<network>-<height>.snapshot.tar.gz)')
    .action(async (flags: CreateFlags) => {
      result.code = await create(flags);
    });
}

async function create(flags: CreateFlags): Promise<number> {
  const node = await locateNode(flags);
  const { database } = node;
  try {
    await database.open();
    // One snapshot of the database for the whole read: a node writing meanwhile (a server
    // database may be shared with a running node) changes nothing of what is read.
    const manifest = await database.transaction(async (manager) => {
      await manager.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const tip = await tipHeight(manager);
      const height = flags.height ?? tip;
      if (height > tip) {
        throw new ConfigError(
          `--height ${height} is above the chain's tip ${tip}: nothing written`,
        );
      }
      const [block] = (await manager.query('SELECT id FROM blocks WHERE height = $1', [
        height,
      ])) as {
        id: string;
      }[];
      const name = node.network.network.name;
      const target = resolve(flags.to ?? `${name}-${height}.snapshot.tar.gz`);
      const progress = progressBar('Writing snapshot', height, 'blocks');
      let done = 0;
      try {
        return await createSnapshot(
          {
            manager,
            milestones: node.milestones,
            network: { name, nethash: node.network.network.nethash },
            lniVersion,
          },
          height,
          block?.id as string,
          target,
          () => progress.update(++done),
        ).then((written) => ({ ...written, target }));
      } finally {
        progress.stop();
      }
    });
    const parts = manifest.parts.map((part) => `${part.name} ${part.rows}`).join(', ');
    process.stdout.write(
      `Snapshot of ${manifest.network.name} at height ${manifest.height} (block ${manifest.blockId}, ${manifest.transactions} transactions; ${parts}) written to ${manifest.target}\n`,
    );
    return 0;
  } finally {
    await database.close();
    await closeLogFiles(node.logger);
  }
}
