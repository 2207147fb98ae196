import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../../test/support/free-port.js';
import {
  query,
  replicaSkipReason,
  startPgReplica,
  type PgReplica,
} from '../../../../test/support/pg-replica.js';
import { connectionOptions } from '../../../../test/support/postgres.js';
import { databasePlugin } from '../plugin.js';

const CHANNEL = 'lni_block_committed';

/** What a listener saw: the payload and the mark it read from the standby in that moment. */
interface Seen {
  readonly payload: string | undefined;
  readonly readOnStandby: Promise<number[]>;
}

describe.skipIf(replicaSkipReason)('commitSignals on a hot standby', () => {
  let pair: PgReplica;
  let reader: TestKernel;
  const seen: Seen[] = [];
  const payloads = () => seen.map((entry) => entry.payload);

  /** A commit on the primary that writes a mark and notifies in the same transaction. */
  const commitMark = (height: number) =>
    query(
      pair.primary,
      `WITH mark AS (INSERT INTO commit_marks VALUES ($1) RETURNING height)
       SELECT pg_notify('${CHANNEL}', json_build_object('height', height)::text) FROM mark`,
      [height],
    );

  beforeAll(async () => {
    pair = await startPgReplica();
    const writer = await startTestKernel({
      plugins: [
        { plugin: databasePlugin, options: { connection: connectionOptions(pair.primary) } },
      ],
    });
    await writer.stop();
    await query(pair.primary, 'CREATE TABLE commit_marks (height int PRIMARY KEY)');
    await eventually(
      async () =>
        (await query(pair.standby, "SELECT to_regclass('commit_marks') AS t"))[0]?.t
          ? true
          : undefined,
      10_000,
      'the table on the standby',
    );
    reader = await startTestKernel({
      mode: 'api',
      plugins: [
        {
          plugin: databasePlugin,
          options: {
            connection: connectionOptions(pair.standby),
            listen: connectionOptions(pair.primary),
            readOnly: true,
          },
        },
      ],
    });
    reader.cradle.commitSignals.on(CHANNEL, (payload) => {
      const readOnStandby = query<{ height: number }>(
        pair.standby,
        'SELECT height FROM commit_marks ORDER BY height',
      ).then((rows) => rows.map((row) => row.height));
      seen.push({ payload, readOnStandby });
    });
  }, 120_000);
  afterAll(async () => {
    await reader?.stop().catch(() => undefined);
    await pair?.remove();
  });

  it('says undefined once listening, then delivers each NOTIFY after the standby has replayed it', async () => {
    await eventually(async () => (seen.length > 0 ? true : undefined), 10_000, 'the first signal');
    expect(payloads()).toEqual([undefined]);

    // With replay paused the standby cannot have the commit: the signal must wait for it.
    await query(pair.standby, 'SELECT pg_wal_replay_pause()');
    await commitMark(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(payloads()).toEqual([undefined]);
    await query(pair.standby, 'SELECT pg_wal_replay_resume()');
    await eventually(async () => (seen.length > 1 ? true : undefined), 10_000, 'signal 1');
    await commitMark(2);
    await eventually(async () => (seen.length > 2 ? true : undefined), 10_000, 'signal 2');

    expect(payloads()).toEqual([undefined, '{"height" : 1}', '{"height" : 2}']);
    expect(await seen[1]?.readOnStandby).toEqual([1]);
    expect(await seen[2]?.readOnStandby).toEqual([1, 2]);
    const metrics = await reader.cradle.metrics.metrics();
    expect(metrics).toMatch(/^lni_database_replay_lag_bytes \d+/m);
    expect(metrics).toMatch(/^lni_database_replay_lag_seconds [\d.e-]+/m);
  }, 30_000);

  it('reconnects after a primary restart and says undefined, then delivers again', async () => {
    const before = seen.length;
    await pair.restart('primary');
    await eventually(
      async () => (seen.length > before ? true : undefined),
      20_000,
      'the signal after the reconnect',
    );
    expect(payloads().slice(before)).toEqual([undefined]);
    expect(reader.logs).toContainEqual(
      expect.objectContaining({
        msg: 'Commit signals: no connection to the primary; reconnecting',
      }),
    );
    await pair.streaming();
    await commitMark(3);
    await eventually(async () => (seen.length > before + 1 ? true : undefined), 10_000, 'signal 3');
    expect(payloads().at(-1)).toBe('{"height" : 3}');
    expect(await seen.at(-1)?.readOnStandby).toEqual([1, 2, 3]);
  }, 40_000);

  it('survives a standby restart: the signal waits, then arrives with the row readable', async () => {
    const before = seen.length;
    await pair.stop('standby');
    await commitMark(4);
    await pair.start('standby');
    await eventually(async () => (seen.length > before ? true : undefined), 20_000, 'signal 4');
    expect(payloads().slice(before)).toEqual(['{"height" : 4}']);
    expect(await seen.at(-1)?.readOnStandby).toEqual([1, 2, 3, 4]);
  }, 40_000);
});
