import { KernelError } from '@lni/errors';

/** One thing wrong in a network file: the key path inside it and why. */
export interface ConfigProblem {
  readonly key: string;
  readonly reason: string;
}

/** A network file that is missing, not JSON, or not valid: names the file, keys and reasons. */
export class NetworkConfigError extends KernelError {
  constructor(
    readonly file: string,
    readonly problems: readonly ConfigProblem[],
    options?: { cause?: unknown },
  ) {
    super('ERR_NETWORK_CONFIG', formatMessage(file, problems), options);
  }
}

function formatMessage(file: string, problems: readonly ConfigProblem[]): string {
  const lines = problems.map(({ key, reason }) => (key ? `${key}: ${reason}` : reason));
  return `${file}: ${lines.join('; ')}`;
}
