import { request, type IncomingMessage } from 'node:http';
import { KernelError } from '@lni/kernel';

/** The node could not be asked (not running, stale socket) or refused what was asked. */
export class AdminRequestError extends KernelError {}

export interface AdminTarget {
  readonly socketPath: string;
  readonly network: string;
}

/**
 * Speaks the admin protocol of a running node over its Unix socket: `POST /operations/<name>`
 * with the arguments as JSON; the answer's `data`, or its `error.message` as an AdminRequestError.
 */
export class AdminClient {
  constructor(private readonly target: AdminTarget) {}

  async call<T = unknown>(operation: string, args: object = {}): Promise<T> {
    const response = await this.post(operation, args);
    const body = JSON.parse(await readAll(response)) as {
      data?: T;
      error?: { code: string; message: string };
    };
    if (response.statusCode !== 200 || body.error) {
      throw new AdminRequestError(
        body.error?.code ?? 'ERR_ADMIN',
        body.error?.message ?? `the node answered ${response.statusCode}`,
      );
    }
    return body.data as T;
  }

  /** Calls a streaming operation, handing each JSON line to `each` until the node ends it. */
  async stream(operation: string, args: object, each: (value: unknown) => void): Promise<void> {
    const response = await this.post(operation, args);
    if (response.statusCode !== 200) {
      const body = JSON.parse(await readAll(response)) as { error?: { message?: string } };
      throw new AdminRequestError(
        'ERR_ADMIN',
        body.error?.message ?? `answer ${response.statusCode}`,
      );
    }
    let rest = '';
    for await (const chunk of response) {
      const lines = (rest + (chunk as Buffer).toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') each(JSON.parse(line));
    }
  }

  private post(operation: string, args: object): Promise<IncomingMessage> {
    const { socketPath, network } = this.target;
    const body = JSON.stringify(args);
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          socketPath,
          method: 'POST',
          path: `/operations/${encodeURIComponent(operation)}`,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        resolve,
      );
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        reject(new AdminRequestError('ERR_NO_NODE', unreachable(error, network, socketPath)));
      });
      outgoing.end(body);
    });
  }
}

function unreachable(error: NodeJS.ErrnoException, network: string, socketPath: string): string {
  if (error.code === 'ENOENT') {
    return `no node is running for network ${network}: ${socketPath} does not exist`;
  }
  if (error.code === 'ECONNREFUSED') {
    return `no node is running for network ${network}: nothing answers on ${socketPath} (left by a node that was killed)`;
  }
  if (error.code === 'EACCES') {
    return `cannot open ${socketPath}: permission denied (run as the user the node runs as)`;
  }
  return `cannot reach the node at ${socketPath}: ${error.message}`;
}

async function readAll(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
