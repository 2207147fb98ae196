// Runs `kernel db:migrate`'s work against one database and prints progress as JSON lines,
// so that a test can kill this process mid-upgrade.
import { databaseOptions } from '../config.js';
import { Database } from '../connection/database.js';
import { migrateDatabase } from '../migrations/migrate.js';
import { quietLogger } from './postgres.js';

const [name, batchRows, pauseMs] = process.argv.slice(2);
const logger = quietLogger();
const database = new Database({
  logger,
  databaseOptions: databaseOptions({
    connection: { host: '127.0.0.1', port: 5432, username: 'postgres', database: name },
  }),
  dataDirectory: '/nonexistent',
});
await database.open();
await migrateDatabase(database, {
  logger,
  batchRows: Number(batchRows),
  pauseBetweenBatchesMs: Number(pauseMs),
  onProgress: (progress) => process.stdout.write(`${JSON.stringify(progress)}\n`),
});
await database.close();
process.stdout.write('done\n');
