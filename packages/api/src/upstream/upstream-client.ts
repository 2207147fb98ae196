import type { Logger } from '@lni/kernel';

/** A request to pass on as it came: method, path with its query, the headers that matter, body. */
export interface ForwardedRequest {
  readonly method: string;
  /** Path and query string, `/api/transactions/unconfirmed?page=2`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

/** What the upstream node answered, to be answered unchanged. */
export interface UpstreamAnswer {
  readonly upstream: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** The answer's headers that belong to what was answered, not to the connection or the node. */
const KEPT_HEADERS = ['content-type', 'retry-after', 'cache-control', 'location'];

/** No upstream node answered (or none is configured): the caller answers 503. */
export class NoUpstreamError extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(
      reasons.length === 0
        ? 'this node forwards this request to a core or relay node, and none is configured: set the API option upstream (CORE_API_UPSTREAM)'
        : `no upstream node answered: ${reasons.join('; ')}`,
    );
  }
}

export interface UpstreamClientDeps {
  /** `http://host:port` of core or relay nodes' APIs, tried in order. */
  readonly upstream: readonly string[];
  /** How long one upstream may take to answer before the next is tried. */
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/**
 * Passes requests this node cannot answer (it holds no pool and its database is read-only) to
 * the first upstream node that answers. Any HTTP answer counts, a refusal too: the client gets
 * what the node that would have taken the transaction says. Only a node that does not answer
 * (refused connection, timeout) is skipped.
 */
export class UpstreamClient {
  constructor(private readonly deps: UpstreamClientDeps) {}

  async forward(request: ForwardedRequest): Promise<UpstreamAnswer> {
    const reasons: string[] = [];
    for (const upstream of this.deps.upstream) {
      try {
        return await this.ask(upstream, request);
      } catch (error) {
        const reason = describeFailure(error);
        reasons.push(`${upstream}: ${reason}`);
        this.deps.logger.debug({ upstream, reason, path: request.path }, 'Upstream did not answer');
      }
    }
    throw new NoUpstreamError(reasons);
  }

  private async ask(upstream: string, request: ForwardedRequest): Promise<UpstreamAnswer> {
    const response = await fetch(new URL(request.path, upstream), {
      method: request.method,
      headers: request.headers,
      body: request.body && request.body.length > 0 ? new Uint8Array(request.body) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(this.deps.timeoutMs),
    });
    const body = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    return { upstream, status: response.status, headers, body };
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
