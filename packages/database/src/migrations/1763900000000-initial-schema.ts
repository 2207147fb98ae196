import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createBlocksTable,
  createRoundsTable,
  createTransactionsTable,
  schemaIndexes,
} from './schema-sql.js';

/** Blocks, transactions and rounds of the 3.0 schema, with their indexes. */
export class InitialSchema1763900000000 implements MigrationInterface {
  name = 'InitialSchema1763900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(createBlocksTable);
    await runner.query(createTransactionsTable('transactions'));
    await runner.query(createRoundsTable);
    for (const statement of schemaIndexes) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS rounds');
    await runner.query('DROP TABLE IF EXISTS transactions');
    await runner.query('DROP TABLE IF EXISTS blocks');
  }
}
