/** Why tests that need the local PostgreSQL skip (the CI script sets this only when it cannot start it). */
export declare const postgresSkipReason: string | undefined;
/** Runs one statement on the local server's maintenance database, as an operator would. */
export declare function adminQuery(sql: string): Promise<void>;
/** A database on the local server, as the node's `CORE_DB_*` variables name it. */
export interface ServerConnection {
    readonly host: string;
    readonly port: number;
    readonly username: string;
    readonly database: string;
}
/** A fresh database on the local server for one test file; `drop()` removes it. */
export declare function createTestDatabase(): Promise<{
    readonly connection: ServerConnection;
    drop(): Promise<void>;
}>;
/** The `CORE_DB_*` variables that point a `kernel start` process at a test database. */
export declare function databaseEnv(connection: ServerConnection): Record<string, string>;
//# sourceMappingURL=postgres.d.ts.map