import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, replicaSkipReason, startPgReplica, type PgReplica } from './pg-replica.js';
import { eventually } from './free-port.js';

describe.skipIf(replicaSkipReason)('a private primary and hot standby', () => {
  let pair: PgReplica;
  beforeAll(async () => {
    pair = await startPgReplica();
  }, 120_000);
  afterAll(async () => {
    await pair?.remove();
  });

  it('streams what the primary writes to the standby, which is in recovery and refuses writes', async () => {
    const [standby] = await query<{ recovery: boolean }>(
      pair.standby,
      'SELECT pg_is_in_recovery() AS recovery',
    );
    const [primary] = await query<{ recovery: boolean }>(
      pair.primary,
      'SELECT pg_is_in_recovery() AS recovery',
    );
    expect({ primary: primary?.recovery, standby: standby?.recovery }).toEqual({
      primary: false,
      standby: true,
    });
    await query(pair.primary, 'CREATE TABLE notes (id int PRIMARY KEY, body text)');
    await query(pair.primary, "INSERT INTO notes VALUES (1, 'written on the primary')");
    const rows = await eventually(
      async () => {
        const found = await query<{ body: string }>(pair.standby, 'SELECT body FROM notes').catch(
          () => [],
        );
        return found.length > 0 ? found : undefined;
      },
      10_000,
      'the row on the standby',
    );
    expect(rows).toEqual([{ body: 'written on the primary' }]);
    await expect(query(pair.standby, "INSERT INTO notes VALUES (2, 'no')")).rejects.toThrow(
      /read-only transaction/,
    );
  });

  it('survives a restart of either server and streams again', async () => {
    await pair.restart('standby');
    await pair.restart('primary');
    await pair.streaming();
    await query(pair.primary, "INSERT INTO notes VALUES (3, 'after restarts')");
    const body = await eventually(
      async () =>
        (
          await query<{ body: string }>(pair.standby, 'SELECT body FROM notes WHERE id = 3').catch(
            () => [],
          )
        )[0]?.body,
      15_000,
      'the row written after the restarts',
    );
    expect(body).toBe('after restarts');
  }, 60_000);
});
