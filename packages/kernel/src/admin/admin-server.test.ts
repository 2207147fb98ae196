import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Joi from 'joi';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../testing/captured-logs.js';
import { adminStream, answerThen } from './admin-operation.js';
import { AdminOperations } from './admin-operations.js';
import { AdminServer, adminSocketPath, adminTokenPath } from './admin-server.js';

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** One admin request as `curl --unix-socket` sends it (or over TCP with `headers`). */
function ask(
  where: { socketPath: string } | { port: number },
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = 'socketPath' in where ? where : { host: '127.0.0.1', port: where.port };
    const outgoing = request({ ...target, method, path, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createTcpServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let data: string;
let servers: AdminServer[];

beforeEach(async () => {
  data = await mkdtemp(join(tmpdir(), 'lni-admin-'));
  servers = [];
});

afterEach(async () => {
  for (const server of servers) await server.stop();
  await rm(data, { recursive: true, force: true });
});

/** What ran after its answer was sent (the `bye` operation). */
let afterwards: string[];

function operations(): AdminOperations {
  afterwards = [];
  const registry = new AdminOperations();
  registry.add('kernel', {
    name: 'bye',
    description: 'answers, then acts (as stop does)',
    run: () => answerThen({ leaving: true }, () => afterwards.push('acted')),
  });
  registry.add<{ ip: string }>('p2p', {
    name: 'peers.unban',
    description: 'lift a ban',
    args: Joi.object({ ip: Joi.string().ip().required() }),
    run: ({ ip }) => ({ unbanned: ip }),
  });
  registry.add('kernel', {
    name: 'ticks',
    description: 'a stream',
    run: () =>
      adminStream((send) => {
        send({ tick: 1 });
        send({ tick: 2 });
        return () => undefined;
      }),
  });
  return registry;
}

async function started(httpPort?: number): Promise<AdminServer> {
  const server = new AdminServer({
    dataDirectory: data,
    operations: operations(),
    logger: captureLogs('fatal').logger,
    ...(httpPort !== undefined && { httpPort }),
  });
  await server.start();
  servers.push(server);
  return server;
}

describe('the admin socket', () => {
  it('is <data>/admin.sock, open to its owner only, and gone after stop', async () => {
    const server = await started();
    expect(server.socketPath).toBe(join(data, 'admin.sock'));
    const { mode } = statSync(server.socketPath);
    expect(mode & 0o777).toBe(0o600);
    await server.stop();
    expect(existsSync(server.socketPath)).toBe(false);
  });

  it('replaces the socket a killed node left behind', async () => {
    const path = join(data, 'admin.sock');
    const holder = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`,
    ]);
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    expect(existsSync(path)).toBe(true);

    const server = await started();
    const answer = await ask({ socketPath: server.socketPath }, 'GET', '/operations');
    expect(answer.status).toBe(200);
  });

  it('refuses to start where another node answers on the socket', async () => {
    await started();
    await expect(started()).rejects.toThrow(
      `another node is running on data directory ${data}: its admin socket ${join(data, 'admin.sock')} answers`,
    );
  });

  describe('of a data directory too deep for a Unix socket path (107 bytes)', () => {
    let deep: string;
    let temporary: string;
    const previousTmp = process.env.TMPDIR;
    beforeEach(async () => {
      deep = join(data, 'a-data-directory-nested'.repeat(5));
      // The shared socket directory goes in TMPDIR: a private one per test.
      temporary = await mkdtemp(join(tmpdir(), 'lni-tmpdir-'));
      process.env.TMPDIR = temporary;
    });
    afterEach(async () => {
      if (previousTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previousTmp;
      await rm(temporary, { recursive: true, force: true });
    });

    const startedOn = async (dataDirectory: string): Promise<AdminServer> => {
      const server = new AdminServer({
        dataDirectory,
        operations: operations(),
        logger: captureLogs('fatal').logger,
      });
      await server.start();
      servers.push(server);
      return server;
    };

    it('is in an owner-only directory of the temporary one, the same for every process', async () => {
      expect(Buffer.byteLength(join(deep, 'admin.sock'))).toBeGreaterThan(107);
      const server = await startedOn(deep);
      expect(server.socketPath).toBe(adminSocketPath(deep));
      expect(server.socketPath.startsWith(join(temporary, 'lni-admin-'))).toBe(true);
      expect(statSync(dirname(server.socketPath)).mode & 0o777).toBe(0o700);
      expect((await ask({ socketPath: server.socketPath }, 'GET', '/operations')).status).toBe(200);
      // Another node on the same data directory finds it; one on another directory does not.
      await expect(startedOn(deep)).rejects.toThrow(
        `another node is running on data directory ${deep}`,
      );
      expect(adminSocketPath(`${deep}-2`)).not.toBe(server.socketPath);
      await server.stop();
      expect(existsSync(server.socketPath)).toBe(false);
    });

    it('refuses to start when that directory may be opened by others, naming it', async () => {
      const shared = dirname(adminSocketPath(deep));
      await mkdir(shared, { mode: 0o777 });
      await chmod(shared, 0o777);
      await expect(startedOn(deep)).rejects.toThrow(
        `${shared}, where admin sockets of deep data directories go, is not a directory of this user that only it may open (mode 777)`,
      );
    });
  });

  it('runs an operation with its arguments and answers { data }', async () => {
    const { socketPath } = await started();
    const answer = await ask(
      { socketPath },
      'POST',
      '/operations/peers.unban',
      '{"ip":"10.0.0.5"}',
    );
    expect(answer).toEqual({ status: 200, body: '{"data":{"unbanned":"10.0.0.5"}}\n' });
  });

  it('acts after the answer is sent, for an operation such as stop', async () => {
    const { socketPath } = await started();
    const answer = await ask({ socketPath }, 'POST', '/operations/bye');
    expect(answer).toEqual({ status: 200, body: '{"data":{"leaving":true}}\n' });
    expect(afterwards).toEqual(['acted']);
  });

  it('answers bad input with 400 and one message naming what is wrong', async () => {
    const { socketPath } = await started();
    const bad = await ask({ socketPath }, 'POST', '/operations/peers.unban', '{"ip":"10.0.0"}');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toMatch(
      /^invalid arguments for 'peers.unban': 'ip'/,
    );
    const notJson = await ask({ socketPath }, 'POST', '/operations/peers.unban', '{ip');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.message).toMatch(
      /arguments of 'peers.unban' are not JSON/,
    );
    const extra = await ask({ socketPath }, 'POST', '/operations/ticks', '{"x":1}');
    expect(JSON.parse(extra.body).error.message).toBe("'ticks' takes no arguments, got: x");
  });

  it('answers an unknown operation with 404 listing the known ones', async () => {
    const { socketPath } = await started();
    const answer = await ask({ socketPath }, 'POST', '/operations/peers.ban', '{}');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).error).toEqual({
      code: 'ERR_ADMIN_UNKNOWN_OPERATION',
      message: "unknown admin operation 'peers.ban'; this node offers: bye, peers.unban, ticks",
    });
  });

  it('streams an operation as JSON lines, ended cleanly when the node stops', async () => {
    const server = await started();
    const body = await new Promise<string>((resolve, reject) => {
      const outgoing = request(
        { socketPath: server.socketPath, method: 'POST', path: '/operations/ticks' },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            // Both lines are in while the stream is still open: the node stops now.
            if (text.split('\n').length === 3) void server.stop();
          });
          response.on('end', () => resolve(text));
          response.on('error', reject);
        },
      );
      outgoing.end();
    });
    expect(body).toBe('{"tick":1}\n{"tick":2}\n');
  });

  it('serves loopback HTTP only with the token it wrote, owner-only, at first start', async () => {
    const port = await freePort();
    await started(port);
    const token = (await readFile(adminTokenPath(data), 'utf8')).trim();
    expect(statSync(adminTokenPath(data)).mode & 0o777).toBe(0o600);
    expect((await ask({ port }, 'GET', '/operations')).status).toBe(401);
    const wrong = { authorization: 'Bearer nope' };
    expect((await ask({ port }, 'GET', '/operations', undefined, wrong)).status).toBe(401);
    const right = { authorization: `Bearer ${token}` };
    expect((await ask({ port }, 'GET', '/operations', undefined, right)).status).toBe(200);
  });
});
