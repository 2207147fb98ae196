import { describe, expect, it } from 'vitest';
import { createTestDatabase, postgresSkipReason, quietLogger } from '../__fixtures__/postgres.js';
import { startProxy } from '../__fixtures__/tcp-proxy.js';
import { databaseOptions } from '../config.js';
import { DatabaseError } from '../errors.js';
import { Database } from './database.js';

describe.skipIf(postgresSkipReason)('Database on PostgreSQL', () => {
  it('waits for a server that is unreachable at start, then connects', async () => {
    const created = await createTestDatabase();
    const proxy = await startProxy(5432);
    await proxy.cut();
    const database = new Database({
      logger: quietLogger(),
      databaseOptions: databaseOptions({
        connection: { host: '127.0.0.1', port: proxy.port, database: created.name },
        retry: { attempts: 20, initialDelayMs: 50, maxDelayMs: 200 },
      }),
      dataDirectory: '/nonexistent',
    });
    try {
      const opening = database.open();
      setTimeout(() => void proxy.restore(), 400);
      await opening;
      expect(await database.manager.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(database.available).toBe(true);
    } finally {
      await database.close();
      await proxy.close();
      await created.drop();
    }
  });

  it('names the database it could not reach after the last attempt', async () => {
    const proxy = await startProxy(5432);
    await proxy.cut();
    const database = new Database({
      logger: quietLogger(),
      databaseOptions: databaseOptions({
        connection: { host: '127.0.0.1', port: proxy.port, database: 'nowhere' },
        retry: { attempts: 2, initialDelayMs: 10 },
      }),
      dataDirectory: '/nonexistent',
    });
    const failure = database.open();
    await expect(failure).rejects.toBeInstanceOf(DatabaseError);
    await expect(failure).rejects.toThrow(`127.0.0.1:${proxy.port}/nowhere`);
    expect(database.available).toBe(false);
  });
});
