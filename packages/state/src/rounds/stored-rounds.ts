import type { RoundStorage, Service, StoredRoundDelegate } from '@lni/database';
import type { ElectedRound } from './election-log.js';

/** A round's delegates as storage keeps them: each with the votes that elected it. */
export function roundRows(elected: ElectedRound): StoredRoundDelegate[] {
  return elected.order.map((publicKey) => ({
    round: elected.round,
    publicKey,
    balance: elected.votes.get(publicKey) ?? 0n,
  }));
}

/** Rows written per statement when storing the rounds a rebuild found missing. */
const ROWS_PER_WRITE = 10_000;

/**
 * After the boot rebuild: stores every round the replay elected that storage lacks (a chain
 * stored before rounds were kept, or upgraded from 2.7 with gaps) and forgets stored rounds
 * above the last one elected. Rounds already stored are left as they are, so running it again
 * changes nothing. Returns how many rounds it wrote.
 */
export async function storeMissingRounds(
  storage: Pick<Service<RoundStorage>, 'deleteRoundsFrom' | 'storedRounds' | 'saveRound'>,
  elections: Iterable<ElectedRound>,
  latestRound: number,
): Promise<number> {
  await storage.deleteRoundsFrom(latestRound + 1);
  const stored = new Set(await storage.storedRounds());
  let rows: StoredRoundDelegate[] = [];
  let written = 0;
  for (const elected of elections) {
    if (stored.has(elected.round)) continue;
    rows.push(...roundRows(elected));
    written++;
    if (rows.length >= ROWS_PER_WRITE) {
      await storage.saveRound(rows);
      rows = [];
    }
  }
  await storage.saveRound(rows);
  return written;
}
