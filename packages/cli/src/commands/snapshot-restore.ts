import { type Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { blockFromJson, VerificationPool } from '@lni/crypto';
import { closeLogFiles, ConfigError } from '@lni/kernel';
import { migrateDatabase } from '@lni/database';
import { locateNode, type DataToolFlags } from '../data-tools/node-database.js';
import { addNodeOptions } from '../data-tools/node-flags.js';
import { progressBar, type Progress } from '../data-tools/progress-bar.js';
import { askPeers } from '../snapshots/peer-confirmation.js';
import { loadSnapshot } from '../snapshots/snapshot-load.js';
import { forgetVerification, verifySnapshot } from '../snapshots/snapshot-verify.js';
import { verificationProgressPath } from '../snapshots/verification-progress.js';
import { pluginSchema } from './db-migrate.js';
import type { CommandResult } from '../program.js';

interface RestoreFlags extends DataToolFlags {
  readonly trust?: boolean;
}

/** The version asked peers are told, as the p2p plugin announces by default (ARK accepts it). */
const ANNOUNCED_VERSION = '3.9.1';

export function registerSnapshotRestore(program: Command, result: CommandResult): void {
  addNodeOptions(
    program
      .command('snapshot:restore')
      .argument('<file>', 'the snapshot written by snapshot:create')
      .description(
        "check a snapshot (network, hashes, chain links, every signature, the tip against the network's peers) and copy it into the node's empty database",
      ),
  )
    .option('--trust', 'go on when no peer can confirm the snapshot’s last block')
    .action(async (file: string, flags: RestoreFlags) => {
      result.code = await restore(resolve(file), flags);
    });
}

async function restore(file: string, flags: RestoreFlags): Promise<number> {
  if (!existsSync(file)) throw new ConfigError(`${file}: no such file`);
  const node = await locateNode(flags);
  const { database } = node;
  const progressPath = verificationProgressPath(node.paths.data);
  const pool = new VerificationPool();
  let bar: Progress | undefined;
  try {
    await database.open();
    await refuseNonEmpty(database.manager, database.description);
    const { network, genesisBlock } = node.network;
    const { manifest, resumedAt, signaturesChecked } = await verifySnapshot({
      file,
      progressPath,
      network: { name: network.name, nethash: network.nethash },
      genesis: genesisOf(genesisBlock),
      milestones: node.milestones,
      pool,
      onManifest: (m) => {
        bar = progressBar('Checking snapshot', m.height, 'blocks');
      },
      onResume: (height, m) => {
        process.stdout.write(
          `Resuming the signature checks at height ${height} of ${m.height} (${progressPath}, left by an interrupted run): the blocks below are followed for links and hashes only\n`,
        );
      },
      onBlocks: (height) => bar?.update(height),
    });
    bar?.stop();
    process.stdout.write(
      `Snapshot checked: ${manifest.network.name} at height ${manifest.height} (block ${manifest.blockId}), ${manifest.transactions} transactions, every hash, link and signature valid (signatures of ${signaturesChecked} blocks checked in this run${resumedAt > 0 ? `, of those up to height ${resumedAt} before` : ''})\n`,
    );
    const verdict = await askPeers(
      node.paths.config,
      { id: manifest.blockId, height: manifest.height },
      ANNOUNCED_VERSION,
    );
    if (verdict.lacking.length > 0 && verdict.confirmed.length === 0) {
      throw new ConfigError(
        `No peer holds block ${manifest.blockId} at height ${manifest.height} (asked ${verdict.lacking.join(', ')}): the snapshot is not of the network's chain; nothing was written`,
      );
    }
    if (verdict.confirmed.length === 0) {
      const asked =
        verdict.unreachable.length > 0 ? verdict.unreachable.join(', ') : 'none in peers.json';
      if (flags.trust !== true) {
        throw new ConfigError(
          `No peer could confirm block ${manifest.blockId} at height ${manifest.height} (peers: ${asked}); pass --trust to restore anyway; nothing was written`,
        );
      }
      process.stderr.write(
        `warning: no peer could confirm block ${manifest.blockId} at height ${manifest.height} (peers: ${asked}); restoring on --trust\n`,
      );
    } else {
      process.stdout.write(
        `Block ${manifest.height} confirmed by ${verdict.confirmed.join(', ')}\n`,
      );
    }
    const schema = await pluginSchema(node.paths.config, flags, node.env, node.paths, node.logger);
    await migrateDatabase(database, { logger: node.logger, ...(schema && { schema }) });
    await refuseNonEmpty(database.manager, database.description);
    bar = progressBar('Restoring', manifest.height, 'blocks');
    await loadSnapshot(database, file, (height) => bar?.update(height));
    bar.stop();
    await forgetVerification(progressPath);
    process.stdout.write(
      `Restored ${manifest.height} blocks and ${manifest.transactions} transactions into ${database.description}; start the node to go on from height ${manifest.height}\n`,
    );
    return 0;
  } finally {
    bar?.stop();
    await pool.close();
    await database.close();
    await closeLogFiles(node.logger);
  }
}

/** The network's genesis block as the snapshot's first block must be: its id, its transactions. */
function genesisOf(json: Record<string, unknown>) {
  const genesis = blockFromJson(json);
  return {
    id: genesis.id,
    transactionIds: (genesis.transactions ?? []).map((tx) => tx.id as string),
  };
}

async function refuseNonEmpty(
  manager: { query(sql: string): Promise<unknown> },
  description: string,
): Promise<void> {
  const [present] = (await manager.query(
    `SELECT to_regclass('blocks') IS NOT NULL AS present`,
  )) as {
    present: boolean;
  }[];
  if (present?.present !== true) return;
  const [tip] = (await manager.query('SELECT max(height)::int AS height FROM blocks')) as {
    height: number | null;
  }[];
  if (tip?.height !== null && tip?.height !== undefined) {
    throw new ConfigError(
      `The database ${description} is not empty (it holds blocks up to height ${tip.height}): snapshot:restore writes only into an empty database; nothing was written`,
    );
  }
}
