import { mkdtemp, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { calculateRound, type Milestones } from '@lni/crypto';
import type { EntityManager } from '@lni/database/contracts';
import { chainLines, tableLines } from './chain-lines.js';
import { writeArchive } from './archive.js';
import { MANIFEST_ENTRY, SNAPSHOT_FORMAT, type SnapshotManifest } from './manifest.js';
import { writePart } from './part-writer.js';

export interface SnapshotSource {
  readonly manager: EntityManager;
  readonly milestones: Milestones;
  readonly network: { readonly name: string; readonly nethash: string };
  readonly lniVersion: string;
}

/**
 * Writes the snapshot of the chain up to `height` to `target`: the chain (blocks with their
 * transactions), the rounds elected up to it, and the wallet table with its head when
 * `state_head` is at exactly that block. Parts go to a scratch directory beside the target
 * first (their hashes belong in the manifest, which comes first in the archive); the archive is
 * written under a temporary name and renamed, so a failed run leaves no half snapshot.
 */
export async function createSnapshot(
  source: SnapshotSource,
  height: number,
  blockId: string,
  target: string,
  onBlock: () => void,
): Promise<SnapshotManifest> {
  const scratch = await mkdtemp(join(dirname(target), `.${basename(target)}.parts-`));
  const partial = `${target}.partial`;
  try {
    const { manager } = source;
    let transactions = 0;
    const chain = await writePart(
      scratch,
      'chain',
      (async function* () {
        for await (const line of chainLines(manager, height)) {
          transactions += line.transactions.length;
          onBlock();
          yield JSON.stringify(line);
        }
      })(),
    );
    const latestRound = calculateRound(height + 1, source.milestones).round;
    const rounds = await writePart(
      scratch,
      'rounds',
      tableLines(
        manager,
        'SELECT row_to_json(r)::text AS line FROM rounds r WHERE round <= $1 ORDER BY round, public_key',
        [latestRound],
      ),
    );
    const parts = [chain, rounds];
    if (await walletTableAt(manager, height, blockId)) {
      parts.push(
        await writePart(
          scratch,
          'state_head',
          tableLines(manager, 'SELECT row_to_json(h)::text AS line FROM state_head h'),
        ),
        await writePart(
          scratch,
          'wallets',
          tableLines(
            manager,
            'SELECT row_to_json(w)::text AS line FROM wallets w ORDER BY address',
          ),
        ),
      );
    }
    const manifest: SnapshotManifest = {
      format: SNAPSHOT_FORMAT,
      network: source.network,
      height,
      blockId,
      transactions,
      lniVersion: source.lniVersion,
      createdAt: new Date().toISOString(),
      parts: parts.map(({ name, sha256, bytes, rows }) => ({ name, sha256, bytes, rows })),
    };
    await writeArchive(partial, [
      { name: MANIFEST_ENTRY, text: `${JSON.stringify(manifest, null, 2)}\n` },
      ...parts.map((part) => ({ name: `${part.name}.ndjson`, file: part.file })),
    ]);
    await rename(partial, target);
    return manifest;
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/** Whether the wallet table describes exactly the block at `height` (issue 29's state_head). */
async function walletTableAt(
  manager: EntityManager,
  height: number,
  blockId: string,
): Promise<boolean> {
  const rows = (await manager.query(`SELECT to_regclass('state_head') IS NOT NULL AS present`)) as {
    present: boolean;
  }[];
  if (rows[0]?.present !== true) return false;
  const head = (await manager.query('SELECT height::int AS height, block_id FROM state_head')) as {
    height: number;
    block_id: string;
  }[];
  return head[0]?.height === height && head[0].block_id === blockId;
}
