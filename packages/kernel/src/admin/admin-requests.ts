import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import { AdminError, isAdminStream, isAnswerThen, type AdminStream } from './admin-operation.js';
import type { AdminOperations } from './admin-operations.js';

const MAX_BODY_BYTES = 64 * 1024;
const PREFIX = '/operations';

/**
 * The admin protocol, HTTP with JSON bodies (the same over the Unix socket and loopback):
 * `GET /operations` lists them; `POST /operations/<name>` with the arguments as a JSON object
 * answers `{ data }`, or a stream of JSON lines (`application/x-ndjson`), or `{ error: { code,
 * message } }` with 400 (bad input), 404 (unknown operation, peer, transaction) or 500.
 */
export class AdminRequests {
  /** Streams under way, ended cleanly when the node stops. */
  private readonly streams = new Set<ServerResponse>();

  constructor(
    private readonly operations: AdminOperations,
    private readonly logger: Logger,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const path = new URL(request.url ?? '/', 'http://admin').pathname;
      if (request.method === 'GET' && path === PREFIX) {
        return send(response, 200, { data: this.operations.list() });
      }
      if (request.method !== 'POST' || !path.startsWith(`${PREFIX}/`)) {
        throw new AdminError(
          'unknown-operation',
          `${request.method} ${path} is not part of the admin protocol: GET ${PREFIX} lists the operations, POST ${PREFIX}/<name> runs one`,
        );
      }
      const name = decodeURIComponent(path.slice(PREFIX.length + 1));
      const operation = this.operations.get(name);
      const args = await readArguments(request, name);
      const checked = operation.args
        ? validate(operation.args, args, name)
        : noArguments(args, name);
      const result = await operation.run(checked);
      if (isAdminStream(result)) return this.stream(request, response, result);
      if (isAnswerThen(result)) {
        response.once('finish', result.afterwards);
        return send(response, 200, { data: result.value ?? null });
      }
      send(response, 200, { data: result ?? null });
    } catch (error) {
      if (error instanceof AdminError) {
        return send(response, error.status, {
          error: { code: error.code, message: error.message },
        });
      }
      this.logger.error({ err: error, url: request.url }, 'Admin operation failed');
      send(response, 500, { error: { code: 'ERR_ADMIN_FAILED', message: describeError(error) } });
    }
  }

  /** Ends every stream under way: its client reads the end of the answer, not a reset. */
  endStreams(): void {
    for (const response of this.streams) response.end();
  }

  /** One JSON line per value until the client hangs up or the node stops. */
  private stream(request: IncomingMessage, response: ServerResponse, result: AdminStream): void {
    response.writeHead(200, { 'content-type': 'application/x-ndjson', connection: 'close' });
    this.streams.add(response);
    const close = result.open((value) => response.write(`${JSON.stringify(value)}\n`));
    response.once('close', () => {
      this.streams.delete(response);
      close();
    });
  }
}

/**
 * Every answer closes its connection (`connection: close`): an operator's command asks once, and
 * no kept-alive connection of a command still waiting (`kernel stop`) can hold the node's stop.
 */
function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  response.end(`${JSON.stringify(body)}\n`);
}

async function readArguments(request: IncomingMessage, name: string): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new AdminError('bad-input', `arguments of '${name}' exceed ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AdminError(
      'bad-input',
      `arguments of '${name}' are not JSON: ${describeError(error)}`,
    );
  }
}

function validate(schema: import('joi').ObjectSchema<object>, args: unknown, name: string): object {
  const { value, error } = schema.validate(args, { abortEarly: false, convert: true });
  if (error) {
    const problems = error.details.map((detail) => detail.message.replaceAll('"', "'"));
    throw new AdminError('bad-input', `invalid arguments for '${name}': ${problems.join('; ')}`);
  }
  return value;
}

function noArguments(args: unknown, name: string): object {
  const keys = typeof args === 'object' && args !== null ? Object.keys(args) : ['(not an object)'];
  if (keys.length > 0) {
    throw new AdminError('bad-input', `'${name}' takes no arguments, got: ${keys.join(', ')}`);
  }
  return {};
}
