import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  query,
  replicaSkipReason,
  startPgReplica,
  type PgReplica,
} from '../../../test/support/pg-replica.js';
import { connectionOptions } from '../../../test/support/postgres.js';
import { eventually } from '../../../test/support/free-port.js';
import { makeChain } from './__fixtures__/chain.js';
import { databasePlugin } from './plugin.js';

const readOnlyNode = (pair: PgReplica, extra: object = {}) =>
  startTestKernel({
    mode: 'api',
    plugins: [
      {
        plugin: databasePlugin,
        options: {
          connection: connectionOptions(pair.standby),
          listen: connectionOptions(pair.primary),
          readOnly: true,
          retry: { attempts: 1 },
          ...extra,
        },
      },
    ],
  });

describe.skipIf(replicaSkipReason)('the database plugin read-only, on a hot standby', () => {
  let pair: PgReplica;
  const nodes: TestKernel[] = [];
  beforeAll(async () => {
    pair = await startPgReplica();
  }, 120_000);
  afterAll(async () => {
    for (const node of nodes) await node.stop().catch(() => undefined);
    await pair?.remove();
  });

  it('refuses to start before the writer has migrated, naming the missing migrations', async () => {
    await expect(readOnlyNode(pair)).rejects.toThrow(
      /is read-only here and lacks \d+ migration\(s\): the writer has not migrated yet; .*\(missing: plugin 'database': InitialSchema/,
    );
  });

  it('reads what the writer stored on the primary, and writes nothing', async () => {
    const writer = await startTestKernel({
      plugins: [
        { plugin: databasePlugin, options: { connection: connectionOptions(pair.primary) } },
      ],
    });
    nodes.push(writer);
    await writer.cradle.blockStorage.saveBlocks(makeChain(4, 2));
    const writerHead = await writer.cradle.blockStorage.getLastBlock();
    await eventually(
      async () => {
        const rows = await query(pair.standby, 'SELECT 1 FROM blocks WHERE height = 4').catch(
          () => [],
        );
        return rows.length > 0 ? true : undefined;
      },
      10_000,
      'the chain on the standby',
    );

    const reader = await readOnlyNode(pair);
    nodes.push(reader);
    expect(reader.logs).toContainEqual(
      expect.objectContaining({ msg: 'Reading from a hot standby' }),
    );
    expect((await reader.cradle.blockStorage.getLastBlock())?.id).toBe(writerHead?.id);
    const page = await reader.cradle.transactionQuery.search({ limit: 100, offset: 0 });
    expect(page.totalCount).toBe(8);
    await expect(reader.cradle.blockStorage.deleteBlocksAbove(1)).rejects.toThrow(/read-only/);
  });

  it('says which option is missing on a standby: readOnly, or listen', async () => {
    await expect(readOnlyNode(pair, { readOnly: false })).rejects.toThrow(
      /is a hot standby, which refuses writes: set the database option readOnly \(CORE_DB_READ_ONLY=true\)/,
    );
    await expect(readOnlyNode(pair, { listen: undefined })).rejects.toThrow(
      /is a hot standby, which refuses LISTEN: set the database option listen \(CORE_DB_LISTEN_URL\)/,
    );
  });

  it('refuses readOnly on the embedded database before starting anything', async () => {
    await expect(
      startTestKernel({ plugins: [{ plugin: databasePlugin, options: { readOnly: true } }] }),
    ).rejects.toThrow(/option 'readOnly' needs a PostgreSQL server/);
  });
});
