import { describe, expect, it } from 'vitest';
import { serializeTransaction } from '@lni/crypto';
import { addressOf, ALICE, BOB, transferOf } from '../blocks/__fixtures__/test-chain.js';
import { PoolIntake } from './pool-intake.js';
import { poolParts, quietLogger } from './__fixtures__/pool-world.js';

const bob = addressOf(BOB);

function intake(maxPerRequest: number) {
  const parts = poolParts();
  const heard: string[] = [];
  parts.announcer.subscribe({
    added: (entries, origin) => heard.push(`${entries.map((e) => e.id).join(',')} ${origin}`),
  });
  return {
    intake: new PoolIntake({ ...parts, logger: quietLogger, maxPerRequest }),
    heard,
    index: parts.index,
  };
}

describe('PoolIntake', () => {
  it('takes at most maxPerRequest, then announces the batch with its origin', async () => {
    const { intake: pool, heard, index } = intake(2);
    const txs = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n));
    const result = await pool.add(txs, 7_000, 'peer');
    expect(result.accepted).toEqual([txs[0]?.id, txs[1]?.id]);
    expect(result.rejected).toMatchObject([
      { index: 2, id: txs[2]?.id, reason: 'request.tooMany' },
    ]);
    expect(heard).toEqual([`${txs[0]?.id},${txs[1]?.id} peer`]);
    expect(index.get(txs[0]?.id as string)?.addedAt).toBe(7_000);
  });

  it('refuses malformed bytes by their position and judges the rest', async () => {
    const { intake: pool } = intake(40);
    const [a1, a3] = [1n, 3n].map((n) => transferOf(ALICE, bob, 1n, n));
    const hex = (tx: typeof a1) => serializeTransaction(tx!).toString('hex');
    const result = await pool.addSerialized(['ff00', hex(a1), 'zz', hex(a3)], undefined, 'peer');
    expect(result.accepted).toEqual([a1?.id]);
    expect(result.rejected.map((r) => [r.index, r.reason])).toEqual([
      [0, 'malformed'],
      [2, 'malformed'],
      [3, 'ERR_TX_NONCE'],
    ]);
  });
});
