import { randomBytes } from 'node:crypto';
import pg from 'pg';
const SERVER = { host: '127.0.0.1', port: 5432, user: 'postgres' };
/** Why tests that need the local PostgreSQL skip (the CI script sets this only when it cannot start it). */
export const postgresSkipReason = process.env.LNI_TEST_POSTGRES === 'unavailable' ? 'PostgreSQL is unavailable' : undefined;
/** Runs one statement on the local server's maintenance database, as an operator would. */
export async function adminQuery(sql) {
    const client = new pg.Client({ ...SERVER, database: 'postgres' });
    await client.connect();
    try {
        await client.query(sql);
    }
    finally {
        await client.end();
    }
}
/** A fresh database on the local server for one test file; `drop()` removes it. */
export async function createTestDatabase() {
    const name = `lni_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    return {
        connection: { host: SERVER.host, port: SERVER.port, username: SERVER.user, database: name },
        drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
}
/** The `CORE_DB_*` variables that point a `kernel start` process at a test database. */
export function databaseEnv(connection) {
    return {
        CORE_DB_HOST: connection.host,
        CORE_DB_PORT: String(connection.port),
        CORE_DB_USERNAME: connection.username,
        CORE_DB_DATABASE: connection.database,
    };
}
//# sourceMappingURL=postgres.js.map