import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import type { AdminOperations } from './admin-operations.js';
import { AdminRequests } from './admin-requests.js';

/** Longest Unix socket path Linux takes (sun_path is 108 bytes with its terminating zero). */
const MAX_SOCKET_PATH = 107;

export interface AdminServerOptions {
  readonly dataDirectory: string;
  readonly operations: AdminOperations;
  readonly logger: Logger;
  /** Also listen on 127.0.0.1 at this port, with the token of `<data>/admin.token`. */
  readonly httpPort?: number;
}

/** The admin over HTTP listens on loopback only: never a public address. */
export const ADMIN_HTTP_HOST = '127.0.0.1';

/**
 * Where the admin socket of a node with this data directory is: `<data>/admin.sock`, or, when
 * that path is too long for a Unix socket, `<tmp>/lni-admin-<uid>/<hash of the data
 * directory>.sock` (an owner-only directory, checked at start), so a deep data directory
 * neither stops the node nor loses the one-node-per-directory check.
 */
export function adminSocketPath(dataDirectory: string): string {
  const inData = join(dataDirectory, 'admin.sock');
  if (Buffer.byteLength(inData) <= MAX_SOCKET_PATH) return inData;
  const hash = createHash('sha256').update(resolve(dataDirectory)).digest('hex').slice(0, 32);
  return join(shortSocketDirectory(), `${hash}.sock`);
}

/** The owner-only directory for admin sockets whose data directory is too deep. */
function shortSocketDirectory(): string {
  return join(tmpdir(), `lni-admin-${process.getuid?.() ?? 'user'}`);
}

/** Where the loopback admin's token is kept. */
export function adminTokenPath(dataDirectory: string): string {
  return join(dataDirectory, 'admin.token');
}

/**
 * The admin interface of a running node: local only, never on the public API port. Always a
 * Unix socket `<data>/admin.sock` that only the node's user may open (0600); optionally
 * loopback HTTP where each request carries the token kept in `<data>/admin.token` (0600).
 */
export class AdminServer {
  private readonly servers: Server[] = [];
  private requests: AdminRequests | undefined;
  readonly socketPath: string;

  constructor(private readonly options: AdminServerOptions) {
    this.socketPath = adminSocketPath(options.dataDirectory);
  }

  async start(): Promise<void> {
    const requests = new AdminRequests(this.options.operations, this.options.logger);
    this.requests = requests;
    await this.listenOnSocket(requests);
    if (this.options.httpPort !== undefined) await this.listenOnLoopback(requests);
  }

  async stop(): Promise<void> {
    this.requests?.endStreams();
    await Promise.all(
      this.servers.splice(0).map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            // Kept-alive connections would hold the close; an answer being written still ends.
            server.closeIdleConnections();
          }),
      ),
    );
    rmSync(this.socketPath, { force: true });
  }

  private async listenOnSocket(requests: AdminRequests): Promise<void> {
    const path = this.socketPath;
    await prepareAdminSocket(this.options.dataDirectory);
    const server = createServer((request, response) => void requests.handle(request, response));
    // The socket is created with the process's umask: make it owner-only from its first moment.
    const umask = process.umask(0o177);
    try {
      await listen(server, path);
    } finally {
      process.umask(umask);
    }
    chmodSync(path, 0o600);
    this.servers.push(server);
    this.options.logger.info({ socket: path }, 'Admin socket listening');
  }

  private async listenOnLoopback(requests: AdminRequests): Promise<void> {
    const token = loadOrCreateToken(adminTokenPath(this.options.dataDirectory));
    const server = createServer((request, response) => {
      if (!authorised(request, token)) return refuse(response);
      void requests.handle(request, response);
    });
    await listen(server, { host: ADMIN_HTTP_HOST, port: this.options.httpPort as number });
    this.servers.push(server);
    this.options.logger.info(
      {
        url: `http://${ADMIN_HTTP_HOST}:${this.options.httpPort}`,
        token: adminTokenPath(this.options.dataDirectory),
      },
      'Admin HTTP listening on loopback',
    );
  }
}

/**
 * Makes way for the admin socket of a node starting on `dataDirectory`: a ConfigError when its
 * path is too long for a Unix socket even in the temporary directory, when that directory's
 * socket directory is not private, or when another node answers there; a socket left by a killed
 * node is removed. `kernel start` calls it before anything starts, so either mistake stops
 * start-up with nothing written.
 */
export async function prepareAdminSocket(dataDirectory: string): Promise<void> {
  const path = adminSocketPath(dataDirectory);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new ConfigError(
      `the admin socket ${path} is longer than the ${MAX_SOCKET_PATH} bytes a Unix socket path may have; use a shorter data directory (--data) or TMPDIR`,
    );
  }
  if (dirname(path) === shortSocketDirectory()) ensurePrivateDirectory(dirname(path));
  if (!existsSync(path)) return;
  if (await socketAnswers(path)) {
    throw new ConfigError(
      `another node is running on data directory ${dataDirectory}: its admin socket ${path} answers`,
    );
  }
  // Left by a node that was killed: nothing listens there any more.
  rmSync(path, { force: true });
}

/**
 * Creates the shared socket directory owner-only, or checks one found is ours and owner-only:
 * in a world-writable /tmp another user could otherwise make it first and see or take the
 * sockets.
 */
function ensurePrivateDirectory(directory: string): void {
  mkdirSync(directory, { mode: 0o700, recursive: true });
  const found = lstatSync(directory);
  const uid = process.getuid?.();
  if (
    !found.isDirectory() ||
    (uid !== undefined && found.uid !== uid) ||
    (found.mode & 0o077) !== 0
  ) {
    throw new ConfigError(
      `${directory}, where admin sockets of deep data directories go, is not a directory of this user that only it may open (mode ${(found.mode & 0o777).toString(8)}); remove it or use a shorter data directory (--data)`,
    );
  }
}

function listen(server: Server, where: string | { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(where, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Whether something accepts connections on the socket (a node running), or it is stale. */
export function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function loadOrCreateToken(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = randomBytes(32).toString('hex');
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return token;
}

function authorised(request: IncomingMessage, token: string): boolean {
  const given = Buffer.from(request.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function refuse(response: ServerResponse): void {
  response.writeHead(401, { 'content-type': 'application/json' });
  response.end(
    `${JSON.stringify({ error: { code: 'ERR_ADMIN_TOKEN', message: 'missing or wrong token: send Authorization: Bearer <contents of admin.token>' } })}\n`,
  );
}
