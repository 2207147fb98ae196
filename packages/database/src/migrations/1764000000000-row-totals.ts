import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each counted table, its totals table, and the columns (with their types) it groups by. */
const COUNTED = [
  {
    table: 'transactions',
    totals: 'transaction_totals',
    groupedBy: { type_group: 'INTEGER', type: 'SMALLINT' },
  },
  { table: 'blocks', totals: 'block_totals', groupedBy: { generator_public_key: 'VARCHAR(66)' } },
] as const;

/**
 * Row counts kept per group as rows are written, so that an exact `totalCount` over a whole
 * table, or over criteria on the grouped columns only (`type`, `typeGroup`; a block generator),
 * is a sum over a few rows instead of a `count(*)` over millions.
 *
 * Statement-level triggers with transition tables keep them: every writer (block storage, a
 * 2.7 upgrade, a cascaded delete, a hand-run statement) updates them in the same transaction as
 * the rows, so a repeatable-read search sees counts and rows of one snapshot.
 */
export class RowTotals1764000000000 implements MigrationInterface {
  name = 'RowTotals1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const { table, totals, groupedBy } of COUNTED) {
      const columns = Object.keys(groupedBy);
      const list = columns.join(', ');
      const definitions = Object.entries(groupedBy).map(
        ([name, type]) => `${name} ${type} NOT NULL`,
      );
      await runner.query(
        `CREATE TABLE ${totals} (${definitions.join(', ')}, count BIGINT NOT NULL,
           PRIMARY KEY (${list}))`,
      );
      await runner.query(countingTrigger(table, totals, columns));
      // The rows stored before the triggers existed.
      await runner.query(
        `INSERT INTO ${totals} (${list}, count)
         SELECT ${list}, count(*) FROM ${table} GROUP BY ${list}`,
      );
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const { table, totals } of COUNTED) {
      for (const event of ['insert', 'delete', 'truncate']) {
        await runner.query(`DROP TRIGGER IF EXISTS ${totals}_${event} ON ${table}`);
      }
      await runner.query(`DROP FUNCTION IF EXISTS ${totals}_count()`);
      await runner.query(`DROP TABLE IF EXISTS ${totals}`);
    }
  }
}

/**
 * A trigger function adding inserted rows to their group's count and taking deleted ones away
 * (groups that reach zero are removed), and the triggers that call it.
 */
function countingTrigger(table: string, totals: string, groupedBy: readonly string[]): string {
  const columns = groupedBy.join(', ');
  const conflict = `ON CONFLICT (${columns}) DO UPDATE SET count = ${totals}.count + excluded.count`;
  const sameGroup = groupedBy.map((column) => `${totals}.${column} = gone.${column}`).join(' AND ');
  return `
    CREATE FUNCTION ${totals}_count() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO ${totals} (${columns}, count)
        SELECT ${columns}, count(*) FROM added GROUP BY ${columns}
        ${conflict};
      ELSIF TG_OP = 'DELETE' THEN
        UPDATE ${totals} SET count = ${totals}.count - gone.count
        FROM (SELECT ${columns}, count(*) AS count FROM removed GROUP BY ${columns}) AS gone
        WHERE ${sameGroup};
        DELETE FROM ${totals} WHERE count = 0;
      ELSE
        DELETE FROM ${totals};
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ${totals}_insert AFTER INSERT ON ${table}
      REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ${totals}_count();
    CREATE TRIGGER ${totals}_delete AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ${totals}_count();
    CREATE TRIGGER ${totals}_truncate AFTER TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION ${totals}_count();`;
}
