import { runKernel } from '@lni/cli/testing';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { publishConfig } from '../support/loopback-peers.js';
import { startPasswordRefusingServer } from '../support/password-server.js';
import { postgresSkipReason } from '../support/postgres.js';

// A relay pointed at a PostgreSQL server it cannot use: start-up ends with one line saying
// PostgreSQL's reason and the CORE_DB_* setting to fix, exit code 1, within 30 seconds.
describe.skipIf(postgresSkipReason)('kernel start with a database it cannot use', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lni-database-errors-'));
    await publishConfig(join(root, 'config'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function failure(env: NodeJS.ProcessEnv): Promise<{ line: string; ms: number }> {
    const startedAt = Date.now();
    const node = runKernel(
      ['start', '--mode', 'relay', '--config', join(root, 'config'), '--data', join(root, 'data')],
      {
        CORE_DB_HOST: '127.0.0.1',
        CORE_DB_PORT: '5432',
        CORE_DB_USERNAME: 'postgres',
        CORE_API_PORT: String(await freePort()),
        CORE_P2P_PORT: String(await freePort()),
        CORE_LOG_LEVEL: 'fatal',
        ...env,
      },
    );
    const { code } = await node.exited();
    const lines = node.stderr().trim().split('\n');
    expect({ code, lines: lines.length }, node.stderr()).toEqual({ code: 1, lines: 1 });
    return { line: lines[0] as string, ms: Date.now() - startedAt };
  }

  const unique = () => randomBytes(4).toString('hex');

  it('names a database that does not exist, and CORE_DB_DATABASE', async () => {
    const database = `lni_missing_${unique()}`;
    const { line } = await failure({ CORE_DB_DATABASE: database });
    expect(line).toBe(
      `error: plugin 'database' failed to boot: Cannot connect to the database (127.0.0.1:5432/${database}): database "${database}" does not exist; create it, or set CORE_DB_DATABASE (connection.database in app.json)`,
    );
  });

  it('names a role that does not exist, and CORE_DB_USERNAME', async () => {
    const role = `lni_nobody_${unique()}`;
    const { line } = await failure({ CORE_DB_DATABASE: 'postgres', CORE_DB_USERNAME: role });
    expect(line).toContain(
      `role "${role}" does not exist; create the role, or set CORE_DB_USERNAME (connection.username in app.json)`,
    );
  });

  // The local server trusts 127.0.0.1, so no password is wrong there: a stand-in that asks
  // for one, as a server with password authentication does, gives PostgreSQL's answer.
  it('says a password was refused, and CORE_DB_PASSWORD', async () => {
    const server = await startPasswordRefusingServer();
    try {
      const { line } = await failure({
        CORE_DB_PORT: String(server.port),
        CORE_DB_USERNAME: 'lni',
        CORE_DB_PASSWORD: 'not the password',
      });
      expect(line).toContain(
        `password authentication failed for user "lni"; set the right one in CORE_DB_PASSWORD (connection.password in app.json)`,
      );
    } finally {
      await server.close();
    }
  });

  it('gives up on a closed port within 30 seconds, naming the address and the settings', async () => {
    const port = await freePort();
    const { line, ms } = await failure({ CORE_DB_PORT: String(port) });
    expect(line).toContain(
      `nothing accepts connections at 127.0.0.1:${port} (ECONNREFUSED); start PostgreSQL there, or set CORE_DB_HOST or CORE_DB_PORT (connection.host, connection.port in app.json)`,
    );
    expect(ms).toBeLessThan(30_000);
  }, 60_000);
});
