import { applySchemaMigrations, Database, databaseOptions, databaseSchema } from '@lni/database';
import { createLogger } from '@lni/kernel';
import { createTestDatabase } from '../../../../../../test/support/postgres.js';
import { apiSchema } from '../api-schema.js';

/** The tables of a node with the API: the database plugin's and the API's own. */
export const webhookSchema = [
  databaseSchema,
  { owner: 'api', migrations: apiSchema.migrations ?? [] },
];

/** A fresh test database on the local PostgreSQL with those tables; `dispose` drops it. */
export async function openWebhookDatabase(): Promise<{
  readonly database: Database;
  readonly options: ReturnType<typeof databaseOptions>;
  dispose(): Promise<void>;
}> {
  const { connection, drop } = await createTestDatabase();
  const options = databaseOptions({ connection, retry: { attempts: 1 } });
  const logger = createLogger({ level: 'fatal' });
  const database = new Database({
    logger,
    databaseOptions: options,
    dataDirectory: '/nonexistent',
  });
  const dispose = async () => {
    await database.close();
    await drop();
  };
  try {
    await database.open();
    await applySchemaMigrations(database, logger, webhookSchema);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { database, options, dispose };
}
